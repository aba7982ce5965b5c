import { api, apiBlob } from '../api.js';
import { h, replaceChildren, table } from '../dom.js';
import { dateTime, fieldText, statusBadge } from '../format.js';
import { section } from '../forms.js';
import { pageObjectUrl, type PageContext } from '../page.js';
import type { Screenshot } from '../records.js';
import { navigate } from '../router.js';
import { downloadButton, thumbnail } from '../thumbnails.js';

const POLL_MS = 2000;
const SHOT_WIDTH = 1024;

/** The video, played from a blob URL (fetched with the session); a GIF is an image. */
function videoPlayer(ctx: PageContext, s: Screenshot): HTMLElement {
  const box = h('div', { class: 'video-box' });
  apiBlob('/screenshot/video', { id: s.id }).then((blob) => {
    if (!ctx.alive()) return;
    const src = pageObjectUrl(ctx, blob);
    box.append(s.video_format === 'gif' ? h('img', { src, alt: `Screencast of ${s.url}` }) : h('video', { src, controls: true, 'aria-label': `Screencast of ${s.url}` }));
  }).catch((err: unknown) => box.append(h('span', { class: 'field-error' }, err instanceof Error ? err.message : String(err))));
  return box;
}

/** Every field of the record, by name; long values (timings, headers) wrap inside the page. */
function recordTable(s: Screenshot): HTMLTableElement {
  const t = table(['Field', 'Value'], Object.keys(s).sort().map((k) => [
    h('code', null, k), k.endsWith('_at') && typeof s[k] === 'string' && s[k] ? `${fieldText(s[k])} (${dateTime(s[k] as string)})` : fieldText(s[k]),
  ]), 'Every field of the record');
  t.classList.add('record');
  return t;
}

function body(ctx: PageContext, s: Screenshot): HTMLElement[] {
  const shots = s.status === 'finished' ? Array.from({ length: s.shots }, (_, i) => i + 1) : [];
  const outputs = [
    s.has_html ? downloadButton('Download HTML', '/screenshot/html', s.id, `screenshot-${s.id}.html`) : null,
    s.has_pdf ? downloadButton('Download PDF', '/screenshot/pdf', s.id, `screenshot-${s.id}.pdf`) : null,
    s.has_video ? downloadButton('Download video', '/screenshot/video', s.id, `screenshot-${s.id}.${s.video_format}`) : null,
  ].filter((b) => b !== null);
  return [
    h('p', { class: 'subtitle' }, statusBadge(s.status), ' ', h('span', { class: 'url' }, s.url), s.error ? h('span', { class: 'field-error' }, ` ${s.error}`) : null),
    section(`Shots (${shots.length})`,
      shots.length === 0
        ? h('p', { class: 'empty' }, s.status === 'processing' ? 'Still processing…' : 'No image was captured.')
        : h('div', { class: 'shots' }, shots.map((n) => h('figure', null,
          thumbnail(ctx, s.id, { width: SHOT_WIDTH, shot: n, alt: `Shot ${n} of ${s.url}` }),
          h('figcaption', null, `Shot ${n}`))))),
    section('Outputs',
      outputs.length === 0 ? h('p', { class: 'empty' }, 'No HTML, PDF or video for this screenshot.') : h('div', { class: 'actions' }, outputs),
      s.has_video ? videoPlayer(ctx, s) : null),
    section('Record', recordTable(s)),
  ];
}

/** GET /screenshot/info: every shot, the outputs, every field of the record; delete. */
export async function screenshotDetailPage(ctx: PageContext): Promise<HTMLElement> {
  const id = Number(ctx.params.id);
  let s = await api<Screenshot>('/screenshot/info', { query: { id } });
  const content = h('div', null, body(ctx, s));
  ctx.every(POLL_MS, async () => {
    if (s.status !== 'processing') return;
    s = await api<Screenshot>('/screenshot/info', { query: { id } });
    if (ctx.alive() && s.status !== 'processing') replaceChildren(content, body(ctx, s));
  });
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete');
  remove.addEventListener('click', () => {
    if (!confirm(`Delete screenshot ${id} and its files?`)) return;
    api('/screenshot/delete', { query: { id, data: 'all' } }).then(() => navigate('#/screenshots')).catch((err: unknown) => remove.after(h('span', { class: 'field-error' }, err instanceof Error ? err.message : String(err))));
  });
  return h('div', null,
    h('p', null, h('a', { href: '#/screenshots' }, '← Screenshots')),
    h('div', { class: 'page-head' }, h('h1', null, `Screenshot ${id}`), remove),
    content);
}
