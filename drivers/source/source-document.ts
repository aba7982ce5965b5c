import { marked } from 'marked';
import type { CaptureSource, CaptureSpec } from '../../core/capture-spec.js';
import { MARKDOWN_STYLE } from './markdown-style.js';

/**
 * Where a source document is opened (beyond-v1.md part 3). Both drivers intercept the navigation to this
 * URL and answer it themselves with the document (Playwright's page.route, Selenium's CDP Fetch), so it
 * never reaches a network or a resolver: `.invalid` is reserved (RFC 6761) and never a real host. Every other
 * request of the document (images, CSS, fonts, scripts, fetches) goes out like any page's, through the
 * egress guard.
 */
export const SOURCE_DOCUMENT_URL = 'http://source.shotfarm.invalid/';

/**
 * The document's policy: `sandbox` without allow-same-origin gives it an opaque origin (`self.origin` is
 * "null"): it is neither the service's origin nor the reserved one, it has no cookies or storage, and what it
 * fetches goes out as any cross-origin request would (CORS, no credentials). allow-scripts: the source's
 * scripts run (charts, client-rendered invoices), as a page's do.
 */
export const SOURCE_DOCUMENT_CSP = 'sandbox allow-scripts';

/** The headers the intercepted navigation is answered with. */
export const SOURCE_DOCUMENT_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': SOURCE_DOCUMENT_CSP,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** The URL the browser opens for a spec: the reserved one for a source, else the spec's own. */
export const navigationUrl = (spec: Pick<CaptureSpec, 'url' | 'source'>): string => (spec.source ? SOURCE_DOCUMENT_URL : new URL(spec.url).href);

/** The URL the record shows for one the browser shows: a source's document is its `source:<kind>/<sha256>`. */
export const recordedUrl = (spec: Pick<CaptureSpec, 'url' | 'source'>, shown: string): string => (spec.source && shown.split('#')[0] === SOURCE_DOCUMENT_URL ? spec.url : shown);

const escapeAttribute = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** `<base href>` of base_url: the first <base> of a document wins, so it goes before anything the source says. */
const baseTag = (baseUrl: string | null): string => (baseUrl ? `<base href="${escapeAttribute(baseUrl)}">` : '');

/** After a leading doctype (so the document keeps its standards mode), else at the very start. */
function withBase(html: string, baseUrl: string | null): string {
  const tag = baseTag(baseUrl);
  if (!tag) return html;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${tag}${html.slice(doctype[0].length)}` : `${tag}${html}`;
}

/**
 * The HTML document of a source: source_html as sent (with base_url's <base>), or source_markdown rendered
 * by marked (GitHub-flavoured: tables, task lists, autolinks) in the default stylesheet. Raw HTML inside
 * Markdown is kept, as GitHub renders it: the sandbox, not an escaping pass, is what contains it.
 */
export function sourceDocument(source: CaptureSource): string {
  if (source.kind === 'html') return withBase(source.text, source.baseUrl);
  const body = marked.parse(source.text, { async: false, gfm: true });
  return `<!doctype html><html><head><meta charset="utf-8">${baseTag(source.baseUrl)}<meta name="viewport" content="width=device-width, initial-scale=1"><style>${MARKDOWN_STYLE}</style></head><body><main>${body}</main></body></html>`;
}
