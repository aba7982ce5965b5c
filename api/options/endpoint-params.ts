import { custom, int, listOf, num, oneOf, text } from './param-kinds.js';
import { z } from 'zod';

/** Record ids are positive int64 values; JSON numbers stay exact up to 2^53 − 1. */
export const idParam = int(1, Number.MAX_SAFE_INTEGER, 'record id');

/** Pages of lists: 25 by default, at most 100 (operations-not-shown.md). */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
const paging = {
  limit: int(1, MAX_PAGE_SIZE, `page size (default ${DEFAULT_PAGE_SIZE})`),
  offset: int(0, 1_000_000_000, 'records to skip'),
};

const statusFilter = oneOf(['processing', 'finished', 'error'] as const, 'only records in this status');

export const SCREENSHOT_INFO_PARAMS = {
  id: idParam,
  wait: int(0, 60, 'seconds to wait for the record to leave processing'),
};

export const SCREENSHOT_LIST_PARAMS = {
  ...paging,
  status: statusFilter,
  country: text(2, 'only records of this country', { re: /^[a-z]{2}$/, says: 'a two-letter lowercase country code' }),
  tag: listOf(text(64, 'tag'), { max: 20, commas: true, description: 'only records carrying every tag given' }),
};

export const SCREENSHOT_SEARCH_PARAMS = {
  ...SCREENSHOT_LIST_PARAMS,
  url: text(4096, "text the record's url contains (case-insensitive)"),
};

export const SCREENSHOT_DELETE_PARAMS = {
  id: idParam,
  data: oneOf(['image', 'url', 'metadata', 'all'] as const, 'what to delete: image (stored files), url, metadata, or all (the record; default)'),
};

export const FILE_PARAMS = { id: idParam };

/** GET /screenshot/html: a download by default; `view=text` shows it in the browser as inert plain text. */
export const HTML_PARAMS = {
  id: idParam,
  view: oneOf(['download', 'text'] as const, 'download (default: text/html as an attachment) or text (shown inline as text/plain, never run)'),
};

/** Thumbnails are bounded so a request cannot ask the server for a gigapixel image. */
export const MAX_THUMBNAIL_SIDE = 10_000;

export const THUMBNAIL_PARAMS = {
  id: idParam,
  shot: int(1, 10, 'which shot, when several were taken (1-based)'),
  format: oneOf(['png', 'jpeg', 'webp'] as const, 'image format (webmp is accepted for webp)', { webmp: 'webp', jpg: 'jpeg' }),
  width: int(1, MAX_THUMBNAIL_SIDE, 'thumbnail width in pixels'),
  height: int(1, MAX_THUMBNAIL_SIDE, 'thumbnail height in pixels'),
  quality: int(1, 100, 'JPEG/WEBP quality'),
  ratio: oneOf(['fit', 'fill'] as const, '`fit` keeps the aspect ratio inside the box; `fill` crops to fill it'),
  scale: num(0.01, 10, 'scale factor'),
  zoom: int(1, 100, 'zoom in percent'),
  left: int(0, 100_000, 'pixels removed from the left edge'),
  right: int(0, 100_000, 'pixels removed from the right edge'),
  top: int(0, 100_000, 'pixels removed from the top edge'),
  bottom: int(0, 100_000, 'pixels removed from the bottom edge'),
  filename: custom(z.string().min(1).max(255).describe('name for a Content-Disposition attachment'), false, (raw) => {
    const s = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0] : null;
    if (s === null) return { ok: false, messages: ['must be given once'] };
    // The name ends up in a response header: refuse anything that could break out of it.
    if (s.length < 1 || s.length > 255 || /[\x00-\x1f\x7f"\\/]/.test(s)) return { ok: false, messages: ['must be 1 to 255 characters without control characters, quotes, slashes or backslashes'] };
    return { ok: true, value: s };
  }),
};

export const BATCH_LIST_PARAMS = { ...paging };
export const BATCH_ID_PARAMS = { id: idParam };

export const APP_LIST_PARAMS = { ...paging };
export const APP_ID_PARAMS = { id: idParam };

/** POST /admin/nodes/drain and /undrain: the node, by the id it heartbeats with (GET /admin/nodes). */
export const NODE_ID_PARAMS = { id: text(500, 'the node id, as GET /admin/nodes lists it') };
