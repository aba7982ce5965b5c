/**
 * Where each output of a screenshot lives in object storage, in one place: the agent writes these keys,
 * the API and the apps read them, and deleting a screenshot deletes its prefix.
 *
 *   screenshots/<id>/shot-<n>.png    one per captured image (n from 1)
 *   screenshots/<id>/page.html       the page's HTML
 *   screenshots/<id>/page.md         the page's readable content as Markdown
 *   screenshots/<id>/page.pdf        the page as PDF
 *   screenshots/<id>/video.<ext>     the scrolling video (mp4, webm or gif)
 *   screenshots/<id>/diff.png        a monitor run's changes against the previous run (the API writes it)
 */

export type VideoExtension = 'mp4' | 'webm' | 'gif';

/** What a stored output is; each kind has one content type. */
export type OutputKind = 'image' | 'html' | 'markdown' | 'pdf' | VideoExtension;

export const CONTENT_TYPES: Readonly<Record<OutputKind, string>> = {
  image: 'image/png',
  html: 'text/html; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  gif: 'image/gif',
};

/**
 * Screenshot ids become one key segment. The database issues bigint ids (a number, or a string when the
 * driver returns bigints as text); letters, `_` and `-` are allowed too so test ids stay readable.
 */
const SCREENSHOT_ID = /^[A-Za-z0-9_-]+$/;

function folder(id: string | number): string {
  const text = String(id);
  if (!SCREENSHOT_ID.test(text)) throw new Error(`not a screenshot id: ${JSON.stringify(text)}`);
  return `screenshots/${text}`;
}

/** Everything stored for one screenshot (the trailing slash keeps `12` from matching `123`). */
export const screenshotPrefix = (id: string | number): string => `${folder(id)}/`;

/** The n-th image (n ≥ 1) of a screenshot. */
export function shotKey(id: string | number, n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`shot number must be a whole number ≥ 1, got ${n}`);
  return `${folder(id)}/shot-${n}.png`;
}

export const htmlKey = (id: string | number): string => `${folder(id)}/page.html`;

export const markdownKey = (id: string | number): string => `${folder(id)}/page.md`;

/** A monitor run's diff image: written by the API after the comparison, deleted with the screenshot. */
export const diffKey = (id: string | number): string => `${folder(id)}/diff.png`;

export const pdfKey = (id: string | number): string => `${folder(id)}/page.pdf`;

export const videoKey = (id: string | number, extension: VideoExtension): string => `${folder(id)}/video.${extension}`;
