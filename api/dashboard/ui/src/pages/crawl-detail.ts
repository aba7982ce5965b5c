import { api } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { dateTime, statusBadge } from '../format.js';
import { section } from '../forms.js';
import type { PageContext } from '../page.js';
import type { Crawl } from '../records.js';
import { CRAWL_HEADERS, crawlRow } from './crawls.js';

const POLL_MS = 2000;

/** GET /crawl/info: the crawl and the screenshots of its pages. */
export async function crawlDetailPage(ctx: PageContext): Promise<HTMLElement> {
  const id = Number(ctx.params.id);
  const summary = h('div', { class: 'card', 'aria-live': 'polite' });
  const pages = h('div');
  let crawl: Crawl;
  const refresh = async (): Promise<void> => {
    crawl = await api<Crawl>('/crawl/info', { query: { id } });
    if (!ctx.alive()) return;
    replaceChildren(summary, table(CRAWL_HEADERS, [crawlRow(crawl, () => void refresh())]));
    const shots = crawl.screenshots ?? [];
    replaceChildren(
      pages,
      shots.length === 0
        ? empty('No pages captured yet.')
        : table(
            ['ID', 'URL', 'Status', 'Created'],
            shots.map((s) => [h('a', { href: `#/screenshots/${s.id}` }, String(s.id)), h('span', { class: 'url' }, s.url), statusBadge(s.status), dateTime(s.created_at)]),
          ),
    );
  };
  await refresh();
  ctx.every(POLL_MS, async () => {
    if (crawl.status === 'processing') await refresh();
  });
  return h('div', null, h('p', null, h('a', { href: '#/crawls' }, '← Crawls')), h('h1', null, `Crawl ${id}: ${crawl!.domain}`), summary, section('Pages', pages));
}
