import { api, apiBlob, createdRecords } from '../api.js';
import { h, replaceChildren, table } from '../dom.js';
import { dateTime, fieldText, statusBadge } from '../format.js';
import { section } from '../forms.js';
import { pageObjectUrl, type PageContext } from '../page.js';
import { plainSentence } from '../plain-error.js';
import type { Screenshot } from '../records.js';
import { createOptions, curlCommand, requestOf } from '../repeat-request.js';
import { navigate } from '../router.js';
import { downloadButton, imageExtension } from '../thumbnails.js';

const POLL_MS = 2000;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The video, played from a blob URL (fetched with the session); a GIF is an image. */
function videoPlayer(ctx: PageContext, s: Screenshot): HTMLElement {
  const box = h('div', { class: 'video-box' });
  apiBlob('/screenshot/video', { id: s.id })
    .then((blob) => {
      if (!ctx.alive()) return;
      const src = pageObjectUrl(ctx, blob);
      box.append(s.video_format === 'gif' ? h('img', { src, alt: `Screencast of ${s.url}` }) : h('video', { src, controls: true, 'aria-label': `Screencast of ${s.url}` }));
    })
    .catch((err: unknown) => box.append(h('span', { class: 'field-error' }, messageOf(err))));
  return box;
}

/**
 * One shot at full size: fitted to the screen's width at first; "Zoom to full size" (or a click on the
 * image) shows it pixel for pixel inside a box that scrolls both ways, so the page itself never does.
 */
function fullShot(ctx: PageContext, s: Screenshot, shot: number): HTMLElement {
  const alt = `Shot ${shot} of ${s.url}`;
  const img = h('img', { alt, class: 'full-shot', decoding: 'async' });
  const box = h('div', { class: 'zoom-box', role: 'region', 'aria-label': `Shot ${shot}`, tabindex: 0 }, img);
  const zoom = h('button', { type: 'button', 'aria-pressed': 'false' }, 'Zoom to full size');
  const toggle = (): void => {
    const zoomed = box.classList.toggle('zoomed');
    zoom.setAttribute('aria-pressed', String(zoomed));
    zoom.textContent = zoomed ? 'Fit to screen' : 'Zoom to full size';
  };
  zoom.addEventListener('click', toggle);
  img.addEventListener('click', toggle);
  apiBlob('/screenshot/thumbnail', { id: s.id, shot })
    .then((blob) => {
      if (ctx.alive()) img.src = pageObjectUrl(ctx, blob);
    })
    .catch((err: unknown) => {
      img.remove();
      box.append(h('span', { class: 'thumb-missing' }, messageOf(err)));
    });
  return h('figure', { class: 'shot-full' }, box, h('figcaption', null, h('span', null, `Shot ${shot}`), zoom));
}

/** Every output as a download: each shot's image (in its stored format), HTML, PDF, video. */
function downloads(s: Screenshot, shots: number[]): HTMLButtonElement[] {
  return [
    ...shots.map((n) =>
      downloadButton(
        shots.length > 1 ? `Download image ${n}` : 'Download image',
        '/screenshot/thumbnail',
        { id: s.id, shot: n },
        (blob) => `screenshot-${s.id}${shots.length > 1 ? `-${n}` : ''}.${imageExtension(blob.type)}`,
      ),
    ),
    s.has_html ? downloadButton('Download HTML', '/screenshot/html', { id: s.id }, `screenshot-${s.id}.html`) : null,
    s.has_pdf ? downloadButton('Download PDF', '/screenshot/pdf', { id: s.id }, `screenshot-${s.id}.pdf`) : null,
    s.has_video ? downloadButton('Download video', '/screenshot/video', { id: s.id }, `screenshot-${s.id}.${s.video_format}`) : null,
  ].filter((b) => b !== null);
}

/** What went wrong, in one sentence; the error as stored one click away when it says more. */
function errorBox(error: string): HTMLElement {
  const sentence = plainSentence(error);
  return h(
    'div',
    { class: 'error-box', role: 'alert' },
    h('p', null, sentence),
    sentence.replace(/\.$/, '') !== error.trim().replace(/\.$/, '') ? h('details', null, h('summary', null, 'Full error text'), h('pre', null, error)) : null,
  );
}

/** The request as a curl command, with a button that copies it (the text stays selectable where the clipboard is refused). */
function curlSection(s: Screenshot, optionNames: string[] | null): HTMLElement {
  if (!optionNames) return section('Request', h('p', { class: 'empty' }, 'The request cannot be shown: the API description did not load.'));
  const command = curlCommand(location.origin, requestOf(s, optionNames));
  const said = h('span', { class: 'muted', role: 'status' });
  const copy = h('button', { type: 'button' }, 'Copy as curl');
  copy.addEventListener('click', () => {
    navigator.clipboard
      .writeText(command)
      .then(() => {
        said.textContent = 'Copied. Set SHOTFARM_API_KEY to one of your API keys before running it.';
      })
      .catch(() => {
        said.textContent = 'The browser refused the clipboard: select the command above and copy it.';
      });
  });
  return section('Request', h('pre', { class: 'command', 'aria-label': 'The request as a curl command' }, command), h('div', { class: 'actions' }, copy, said));
}

/** Every field of the record, by name; long values (timings, headers) wrap inside the page. */
function recordTable(s: Screenshot): HTMLTableElement {
  const t = table(
    ['Field', 'Value'],
    Object.keys(s)
      .sort()
      .map((k) => [h('code', null, k), k.endsWith('_at') && typeof s[k] === 'string' && s[k] ? `${fieldText(s[k])} (${dateTime(s[k] as string)})` : fieldText(s[k])]),
    'Every field of the record',
  );
  t.classList.add('record');
  return t;
}

function body(ctx: PageContext, s: Screenshot, optionNames: string[] | null): HTMLElement[] {
  const shots = s.status === 'finished' ? Array.from({ length: s.shots }, (_, i) => i + 1) : [];
  const outputs = downloads(s, shots);
  return [
    h('p', { class: 'subtitle' }, statusBadge(s.status), ' ', h('span', { class: 'url' }, s.url)),
    s.status === 'error' ? errorBox(s.error ?? '') : null,
    section(
      `Shots (${shots.length})`,
      shots.length === 0
        ? h('p', { class: 'empty' }, s.status === 'processing' ? 'Still processing…' : 'No image was captured.')
        : h(
            'div',
            { class: 'shots' },
            shots.map((n) => fullShot(ctx, s, n)),
          ),
    ),
    section(
      'Downloads',
      outputs.length === 0
        ? h('p', { class: 'empty' }, s.status === 'processing' ? 'The files appear here when the capture has finished.' : 'No file was kept for this screenshot.')
        : h('div', { class: 'actions' }, outputs),
      s.has_video ? videoPlayer(ctx, s) : null,
    ),
    curlSection(s, optionNames),
    section('Record', recordTable(s)),
  ].filter((el) => el !== null);
}

/** GET /screenshot/info: every shot at full size, downloads, the error in a sentence, the request; run again, delete. */
export async function screenshotDetailPage(ctx: PageContext): Promise<HTMLElement> {
  const id = Number(ctx.params.id);
  const [first, optionNames] = await Promise.all([api<Screenshot>('/screenshot/info', { query: { id } }), createOptions().catch(() => null)]);
  let s = first;
  const content = h('div', null, body(ctx, s, optionNames));
  ctx.every(POLL_MS, async () => {
    if (s.status !== 'processing') return;
    s = await api<Screenshot>('/screenshot/info', { query: { id } });
    if (ctx.alive() && s.status !== 'processing') replaceChildren(content, body(ctx, s, optionNames));
  });
  const again = h('button', { type: 'button', class: 'primary', disabled: optionNames === null }, 'Run again');
  again.addEventListener('click', () => {
    again.disabled = true;
    api<Screenshot[] | Screenshot>('/screenshot/create', { query: requestOf(s, optionNames ?? []) })
      .then((data) => navigate(`#/screenshots/${createdRecords(data)[0]?.id ?? ''}`))
      .catch((err: unknown) => {
        again.disabled = false;
        again.after(h('span', { class: 'field-error' }, messageOf(err)));
      });
  });
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete');
  remove.addEventListener('click', () => {
    if (!confirm(`Delete screenshot ${id} and its files?`)) return;
    api('/screenshot/delete', { query: { id, data: 'all' } })
      .then(() => navigate('#/screenshots'))
      .catch((err: unknown) => remove.after(h('span', { class: 'field-error' }, messageOf(err))));
  });
  return h(
    'div',
    null,
    h('p', null, h('a', { href: '#/screenshots' }, '← Screenshots')),
    h('div', { class: 'page-head' }, h('h1', null, `Screenshot ${id}`), h('div', { class: 'actions' }, again, remove)),
    content,
  );
}
