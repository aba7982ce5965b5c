import { z } from 'zod';
import { bool, custom, int, listOf, num, oneOf, text } from '../options/param-kinds.js';
import { MAX_THUMBNAIL_SIDE } from '../options/endpoint-params.js';

/** Batch create caps `delay` to 30 seconds instead of refusing more (the spec's rule). */
export const BATCH_MAX_DELAY_SECONDS = 30;

/**
 * The fields of POST /batch/create that are the batch's own. Every other field is a screenshot option
 * and is validated by the create rules (CREATE_PARAMS), applied to each URL of the file.
 */
export const BATCH_OWN_PARAMS = {
  name: text(200, 'batch name'),
  apps: listOf(int(1, Number.MAX_SAFE_INTEGER, 'app configuration id'), { max: 10, commas: true, description: 'app configuration ids run after each screenshot finishes' }),
  filename_template: text(300, 'names of the files in the ZIP; variables {id} {domain} {shot} {browser} {country} {yyyy} {mm} {dd} {date} {random} {tags} {url}'),
  hosting: oneOf(['s3'] as const, 'upload each screenshot through the object-storage app instead of building a ZIP'),
  hosting_bucket: text(
    255,
    "bucket for hosting=s3: one of your s3 app configurations' bucket, or one the service offers your account for hosting (omitted: the first it offers); any other is refused",
  ),
  hosting_private: bool("owner-full-control instead of public-read for uploaded objects (the service's buckets are private unless its operator allows public-read)"),
  thumbnail_width: int(1, MAX_THUMBNAIL_SIDE, 'thumbnail width in pixels'),
  thumbnail_height: int(1, MAX_THUMBNAIL_SIDE, 'thumbnail height in pixels'),
  thumbnail_format: oneOf(['png', 'jpeg', 'webp'] as const, 'thumbnail format (omitted: each image keeps its format)', { webmp: 'webp', jpg: 'jpeg' }),
  thumbnail_quality: int(1, 100, 'JPEG/WEBP quality'),
  thumbnail_ratio: oneOf(['fit', 'fill'] as const, 'fit (default) or fill'),
  thumbnail_scale: num(0.01, 10, 'scale multiplier, combines with thumbnail_zoom'),
  thumbnail_zoom: int(1, 100, 'zoom in percent'),
  thumbnail_left: int(0, 100_000, 'crop box left edge'),
  thumbnail_top: int(0, 100_000, 'crop box top edge'),
  thumbnail_right: int(0, 100_000, 'crop box right edge, exclusive; 0 extends to the image edge'),
  thumbnail_bottom: int(0, 100_000, 'crop box bottom edge, exclusive; 0 extends to the image edge'),
};

/** Fields that are neither the batch's own nor screenshot options (the list itself, the credential). */
export const BATCH_TRANSPORT_FIELDS = ['file', 'urls', 'key', 'url'] as const;

/** The `Idempotency-Key` header: printable ASCII, bounded. */
export const idempotencyKeyParam = custom(z.string().min(1).max(255), false, (raw) => {
  const s = Array.isArray(raw) && typeof raw[0] === 'string' ? raw[0] : '';
  return /^[\x21-\x7e]{1,255}$/.test(s) ? { ok: true, value: s } : { ok: false, messages: ['must be 1 to 255 printable ASCII characters'] };
});
