import { api } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { dateTime, progress, statusBadge } from '../format.js';
import { field, input, messageArea, onSubmit, section, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { PageContext } from '../page.js';
import type { Crawl } from '../records.js';
import { navigate } from '../router.js';

const POLL_MS = 2000;

export function crawlRow(c: Crawl, onChange: () => void): HTMLElement[] {
  const cancel = c.status === 'processing' ? h('button', { type: 'button', class: 'danger' }, 'Cancel') : null;
  cancel?.addEventListener('click', () => {
    cancel.disabled = true;
    api('/crawl/cancel', { json: { id: c.id } })
      .then(onChange)
      .catch((err: unknown) => cancel.after(h('span', { class: 'field-error' }, String(err instanceof Error ? err.message : err))));
  });
  return [
    h('a', { href: `#/crawls/${c.id}` }, String(c.id)),
    h('span', { class: 'url' }, c.start_url),
    statusBadge(c.status),
    progress(c.processed + c.failed, Math.min(c.max_urls, Math.max(c.total_discovered, c.processed + c.failed)), `Crawl ${c.id} progress`),
    `${c.max_urls}`,
    dateTime(c.created_at),
    c.error ?? '',
    cancel,
  ].map((cell) => h('span', null, cell));
}

export const CRAWL_HEADERS = ['ID', 'Start URL', 'Status', 'Pages', 'At most', 'Created', 'Error', ''];

/** POST /crawl/create and GET /crawl/list with live progress. */
export async function crawlsPage(ctx: PageContext): Promise<HTMLElement> {
  const url = input('url', { type: 'url', required: true, placeholder: 'https://example.com/' });
  const domain = input('domain', { placeholder: 'example.com' });
  const maxUrls = input('max_urls', { type: 'number', min: 1, max: 1000, value: '10', required: true });
  const area = messageArea();
  const form = h(
    'form',
    { novalidate: true, 'aria-label': 'New crawl' },
    h(
      'div',
      { class: 'row' },
      field('Start URL', url),
      field('Domain (optional)', domain, "Pages of this host and its subdomains are followed; default: the start URL's host."),
      field('Pages at most', maxUrls),
    ),
    area,
    submitButton('Start crawl'),
  );
  onSubmit(form, area, async () => {
    const body: Record<string, string | number> = { url: url.value.trim(), max_urls: Number(maxUrls.value) };
    // The API needs the domain; the start URL's host is what a user means when they leave it empty.
    const host = URL.canParse(body.url as string) ? new URL(body.url as string).hostname : '';
    if (domain.value.trim() || host) body.domain = domain.value.trim() || host;
    const crawl = await api<Crawl>('/crawl/create', { json: body });
    flash(`Crawl ${crawl.id} of ${crawl.domain} started.`);
    navigate('#/crawls');
  });

  const list = h('div', { 'aria-live': 'polite' });
  let crawls: Crawl[] = [];
  const refresh = async (): Promise<void> => {
    crawls = await api<Crawl[]>('/crawl/list', { query: { limit: 50 } });
    if (!ctx.alive()) return;
    replaceChildren(
      list,
      crawls.length === 0
        ? empty('No crawls yet.')
        : table(
            CRAWL_HEADERS,
            crawls.map((c) => crawlRow(c, () => void refresh())),
          ),
    );
  };
  await refresh();
  ctx.every(POLL_MS, async () => {
    if (crawls.some((c) => c.status === 'processing')) await refresh();
  });
  return h('div', null, h('h1', null, 'Crawls'), section('New crawl', form), section('Crawls', list));
}
