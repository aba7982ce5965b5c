import type { Readable } from 'node:stream';
import type { AppContext } from '../http/state.js';

/**
 * What a stored output may do when a browser opens it on this origin: nothing. Captured pages (and the
 * files made from them) are whatever the captured site chose to put there, so they must never run as this
 * origin, where the API and the dashboard live.
 * - `sandbox` without allow-scripts or allow-same-origin: no script runs (HTML, SVG), and the document
 *   has an opaque origin, so it reaches neither this origin's storage nor its cookies.
 * - `default-src 'none'`: a page shown anyway loads nothing (no beacon to its author, no request to the
 *   API with the viewer's cookie); inline styles and data: images only, so it still looks like itself.
 * Measured in Chromium 14x (test/integration/stored-content-xss.test.ts): image and PDF documents still
 * display under this policy; a sandboxed video document does not play (it loads its source cross-origin
 * from its opaque origin), so videos are downloads (see the routes).
 */
export const STORED_CONTENT_CSP = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'";

export interface StoredContent {
  /** the Content-Type sent: the stored one, or a safer one the route chose (text/plain for view=text) */
  type: string;
  body: Readable | Buffer;
  length?: number;
  /** a Content-Disposition (attachment(...)): absent, the browser may show it, inert */
  disposition?: string;
}

/**
 * The one way stored or user content leaves the service (screenshot images and thumbnails, HTML, PDF,
 * video, batch ZIPs): with the sandbox above, `nosniff` (the declared type is the only type: no HTML
 * guessed from bytes), and no Referer (a link in a shown page must not carry a `key=` URL to its site).
 */
export function sendStoredContent(ctx: AppContext, content: StoredContent): void {
  ctx.set('Content-Security-Policy', STORED_CONTENT_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  if (content.disposition !== undefined) ctx.set('Content-Disposition', content.disposition);
  ctx.type = content.type;
  if (content.length !== undefined) ctx.length = content.length;
  ctx.body = content.body;
}
