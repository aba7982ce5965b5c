import type { ImageFormat } from '../capture-spec.js';

/**
 * Where each output of a screenshot lives in object storage, in one place: the agent writes these keys,
 * the API and the apps read them, and deleting a screenshot deletes its prefix.
 *
 *   screenshots/<id>/shot-<n>.<ext>  one per captured image (n from 1): png, jpg or webp (the capture's format)
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

/** The content type and key extension of a stored image, by the capture's format (beyond-v1.md part 4). */
export const IMAGE_TYPES: Readonly<Record<ImageFormat, { contentType: string; extension: string }>> = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  webp: { contentType: 'image/webp', extension: 'webp' },
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

/** The n-th image (n ≥ 1) of a screenshot, in its format (PNG unless the capture asked for another). */
export function shotKey(id: string | number, n: number, format: ImageFormat = 'png'): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`shot number must be a whole number ≥ 1, got ${n}`);
  return `${folder(id)}/shot-${n}.${IMAGE_TYPES[format].extension}`;
}

export const htmlKey = (id: string | number): string => `${folder(id)}/page.html`;

export const markdownKey = (id: string | number): string => `${folder(id)}/page.md`;

/** A monitor run's diff image: written by the API after the comparison, deleted with the screenshot. */
export const diffKey = (id: string | number): string => `${folder(id)}/diff.png`;

export const pdfKey = (id: string | number): string => `${folder(id)}/page.pdf`;

export const videoKey = (id: string | number, extension: VideoExtension): string => `${folder(id)}/video.${extension}`;
