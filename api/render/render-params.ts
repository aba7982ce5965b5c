import { int, oneOf } from '../options/param-kinds.js';
import { THUMBNAIL_PARAMS } from '../options/endpoint-params.js';
import { RENDER_FORMAT_NAMES } from './render-formats.js';

/** A render waits at most this long for its record (beyond-v1.md part 1); the capture itself goes on. */
export const MAX_RENDER_TIMEOUT_SECONDS = 120;
export const DEFAULT_RENDER_TIMEOUT_SECONDS = 60;

/** The thumbnail's resizing parameters, as GET /screenshot/thumbnail declares them (not copied). */
const { width, height, ratio, scale, zoom, left, right, top, bottom } = THUMBNAIL_PARAMS;
export const RENDER_RESIZE_PARAMS = { width, height, ratio, scale, zoom, left, right, top, bottom };

/**
 * What GET|POST /screenshot/render takes beyond create's options. `format` and `quality` are also
 * create's options (the stored image's, part 4): render's `format` is wider and maps onto them
 * (render-formats.ts), so the render reads both itself and hands create the capture's.
 */
export const RENDER_PARAMS = {
  format: oneOf(RENDER_FORMAT_NAMES, 'what to answer: png (default), jpeg, webp, avif, pdf, html, markdown, or json (the record, with the Markdown text when markdown=1)', {
    jpg: 'jpeg',
    webmp: 'webp',
  }),
  quality: int(1, 100, 'JPEG, WEBP or AVIF quality'),
  timeout: int(1, MAX_RENDER_TIMEOUT_SECONDS, `seconds the request waits for the capture (default ${DEFAULT_RENDER_TIMEOUT_SECONDS}); past it 504, and the capture goes on`),
  ...RENDER_RESIZE_PARAMS,
};
