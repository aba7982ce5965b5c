// Images of stored screenshots. GET /screenshot/thumbnail needs the session's CSRF proof, which an <img src>
// cannot send: the image is fetched with it and shown through a blob URL, revoked when the page is left.
import { apiBlob, type Query } from './api.js';
import { h } from './dom.js';
import { pageObjectUrl, type PageContext } from './page.js';

/** An <img> that fills in once the thumbnail has arrived (a placeholder says so when it cannot). */
export function thumbnail(ctx: PageContext, id: number, opts: { width: number; shot?: number; alt: string }): HTMLElement {
  const img = h('img', { alt: opts.alt, class: 'thumb', width: opts.width, decoding: 'async' });
  const box = h('div', { class: 'thumb-box' }, img);
  apiBlob('/screenshot/thumbnail', { id, width: opts.width, shot: opts.shot })
    .then((blob) => {
      if (ctx.alive()) img.src = pageObjectUrl(ctx, blob);
    })
    .catch((err: unknown) => {
      img.remove();
      box.append(h('span', { class: 'thumb-missing' }, err instanceof Error ? err.message : 'no image'));
    });
  return box;
}

/** The file extension of an image's type (image/jpeg → jpg). */
export const imageExtension = (type: string): string => (({ 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }) as Record<string, string>)[type] ?? 'png';

/**
 * A button that downloads an output (image, HTML, PDF, video) with the session. Downloaded, never shown
 * inline: a captured page's HTML opened from a blob URL would run with the dashboard's origin and session.
 * `filename` may depend on what arrived (an image's format is known from its type).
 */
export function downloadButton(label: string, path: string, query: Query, filename: string | ((blob: Blob) => string)): HTMLButtonElement {
  const button = h('button', { type: 'button' }, label);
  button.addEventListener('click', () => {
    button.disabled = true;
    apiBlob(path, query)
      .then((blob) => {
        const url = URL.createObjectURL(blob);
        const a = h('a', { href: url, download: typeof filename === 'string' ? filename : filename(blob), hidden: true });
        document.body.append(a);
        a.click();
        a.remove();
        // The download has started from the URL; it can go once the click has been handled.
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      })
      .catch((err: unknown) => {
        button.after(h('span', { class: 'field-error' }, err instanceof Error ? err.message : String(err)));
      })
      .finally(() => {
        button.disabled = false;
      });
  });
  return button;
}
