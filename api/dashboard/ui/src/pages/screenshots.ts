import { api } from '../api.js';
import { empty, h, replaceChildren } from '../dom.js';
import { dateTime, statusBadge } from '../format.js';
import { field, input, select } from '../forms.js';
import type { PageContext } from '../page.js';
import type { Screenshot } from '../records.js';
import { navigate } from '../router.js';
import { thumbnail } from '../thumbnails.js';

const PAGE_SIZE = 24;
/** How often a list with unfinished records asks again. */
const POLL_MS = 2000;
const THUMB_WIDTH = 320;

/** The filters of the hash's query, as the API's parameters. */
interface Filters {
  status: string;
  country: string;
  tag: string;
  url: string;
  offset: number;
}

function filtersOf(query: URLSearchParams): Filters {
  return {
    status: query.get('status') ?? '',
    country: query.get('country') ?? '',
    tag: query.get('tag') ?? '',
    url: query.get('url') ?? '',
    offset: Math.max(0, Number(query.get('offset') ?? 0) || 0),
  };
}

function hashWith(filters: Filters): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v !== '' && v !== 0) q.set(k, String(v));
  const qs = q.toString();
  return `#/screenshots${qs ? `?${qs}` : ''}`;
}

/** GET /screenshot/list (or /screenshot/search when a URL text is given): cards with thumbnails, filters, paging. */
export async function screenshotsPage(ctx: PageContext): Promise<HTMLElement> {
  const filters = filtersOf(ctx.query);
  const load = (): Promise<Screenshot[]> =>
    api<Screenshot[]>(filters.url ? '/screenshot/search' : '/screenshot/list', {
      query: { limit: PAGE_SIZE, offset: filters.offset, status: filters.status, country: filters.country, tag: filters.tag, url: filters.url },
    });

  const status = select(
    'status',
    [
      ['', 'Any'],
      ['processing', 'Processing'],
      ['finished', 'Finished'],
      ['error', 'Error'],
    ],
    filters.status,
  );
  const country = input('country', { value: filters.country, placeholder: 'us', maxlength: 2, size: 4 });
  const tag = input('tag', { value: filters.tag, placeholder: 'tag' });
  const url = input('url', { type: 'search', value: filters.url, placeholder: 'example.com' });
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter screenshots' },
    field('Status', status),
    field('Country', country),
    field('Tag', tag),
    field('URL contains', url),
    h('button', { type: 'submit' }, 'Filter'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    navigate(hashWith({ status: status.value, country: country.value.trim().toLowerCase(), tag: tag.value.trim(), url: url.value.trim(), offset: 0 }));
  });

  // A finished record's thumbnail is fetched once and kept across refreshes of the list.
  const thumbs = new Map<number, HTMLElement>();
  const list = h('div', { class: 'shot-grid', 'aria-live': 'polite' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages' });

  const card = (s: Screenshot): HTMLElement => {
    let thumb: HTMLElement;
    if (s.status === 'finished') {
      thumb = thumbs.get(s.id) ?? thumbnail(ctx, s.id, { width: THUMB_WIDTH, alt: `Screenshot of ${s.url}` });
      thumbs.set(s.id, thumb);
    } else {
      thumb = h('div', { class: 'thumb-box thumb-pending' }, s.status === 'processing' ? 'processing…' : s.error || 'no image');
    }
    return h(
      'article',
      { class: 'shot-card', 'aria-label': `Screenshot ${s.id}` },
      h('a', { href: `#/screenshots/${s.id}`, class: 'shot-link' }, thumb),
      h(
        'div',
        { class: 'shot-meta' },
        h('a', { href: `#/screenshots/${s.id}`, class: 'url' }, s.url),
        h('div', null, statusBadge(s.status), ' ', h('span', { class: 'muted' }, `#${s.id} · ${dateTime(s.created_at)}`)),
      ),
    );
  };

  const show = (rows: Screenshot[]): void => {
    replaceChildren(list, rows.length === 0 ? empty('No screenshots match.') : rows.map(card));
    replaceChildren(
      pager,
      filters.offset > 0 ? h('a', { href: hashWith({ ...filters, offset: Math.max(0, filters.offset - PAGE_SIZE) }) }, '← Newer') : null,
      rows.length === PAGE_SIZE ? h('a', { href: hashWith({ ...filters, offset: filters.offset + PAGE_SIZE }) }, 'Older →') : null,
    );
  };

  let rows = await load();
  show(rows);
  ctx.every(POLL_MS, async () => {
    if (!rows.some((s) => s.status === 'processing')) return;
    rows = await load();
    if (ctx.alive()) show(rows);
  });

  return h('div', null, h('div', { class: 'page-head' }, h('h1', null, 'Screenshots'), h('a', { class: 'button primary', href: '#/create' }, 'New screenshot')), form, list, pager);
}
