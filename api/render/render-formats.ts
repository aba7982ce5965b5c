/**
 * What each `format` of GET /screenshot/render captures and answers: ONE table (beyond-v1.md part 1).
 * - `capture`: the stored image's format (part 4); `pdf`, `html`, `markdown` and `json` keep a PNG image.
 * - `outputs`: the create options the answer needs turned on (`pdf=true` for a PDF).
 * - `answer`: what the 200 carries: the image (converted to `encode` when the capture cannot be it, as AVIF),
 *   a stored output (`pdf`, `html`, `markdown`), or the record as JSON (with the Markdown's text as `markdown`
 *   when the request asked for it: render-service.ts).
 */
export const RENDER_FORMATS = {
  png: { capture: 'png', outputs: {}, answer: 'image' },
  jpeg: { capture: 'jpeg', outputs: {}, answer: 'image' },
  webp: { capture: 'webp', outputs: {}, answer: 'image' },
  avif: { capture: 'png', outputs: {}, answer: 'image', encode: 'avif' },
  pdf: { capture: 'png', outputs: { pdf: 'true' }, answer: 'pdf' },
  html: { capture: 'png', outputs: { html: 'true' }, answer: 'html' },
  markdown: { capture: 'png', outputs: { markdown: 'true' }, answer: 'markdown' },
  json: { capture: 'png', outputs: {}, answer: 'json' },
} as const satisfies Record<string, RenderFormat>;

export interface RenderFormat {
  capture: 'png' | 'jpeg' | 'webp';
  outputs: Record<string, string>;
  answer: 'image' | 'pdf' | 'html' | 'markdown' | 'json';
  encode?: 'avif';
}

export type RenderFormatName = keyof typeof RENDER_FORMATS;
export const RENDER_FORMAT_NAMES = Object.keys(RENDER_FORMATS) as [RenderFormatName, ...RenderFormatName[]];

/** The Content-Type of each answer that is not an image (an image's is its format's). */
export const ANSWER_TYPES = { pdf: 'application/pdf', html: 'text/html; charset=utf-8', markdown: 'text/markdown; charset=utf-8', json: 'application/json; charset=utf-8' } as const;
