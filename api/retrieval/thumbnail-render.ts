import sharp from 'sharp';
import { fieldError, validationError } from '../../core/errors.js';
import { MAX_THUMBNAIL_SIDE } from '../options/endpoint-params.js';

/** The formats a thumbnail (or a render's image) may be encoded in. */
export type ImageEncoding = 'png' | 'jpeg' | 'webp' | 'avif';

export interface ThumbnailOptions {
  format?: ImageEncoding;
  width?: number;
  height?: number;
  quality?: number;
  ratio?: 'fit' | 'fill';
  scale?: number;
  zoom?: number;
  left?: number;
  right?: number;
  top?: number;
  bottom?: number;
}

/** The encoding of a stored image, by its Content-Type (images stored before `format` existed are PNG). */
export const storedEncoding = (contentType: string): ImageEncoding => (/^image\/(jpeg|webp|avif)\b/.exec(contentType)?.[1] as ImageEncoding | undefined) ?? 'png';

/** Whether the options change the image at all; without any, the stored original (in its `stored` format) is sent as it is. */
export function changesImage(o: ThumbnailOptions, stored: ImageEncoding = 'png'): boolean {
  return Object.entries(o).some(([k, v]) => v !== undefined && !(k === 'format' && v === stored));
}

/**
 * Renders a thumbnail: crop first (pixels removed from each edge), then zoom × scale, then the
 * width/height box (`fit` keeps the whole image inside it, `fill` covers it and crops the overflow),
 * then the format and quality. Every output side is bounded by MAX_THUMBNAIL_SIDE.
 */
export async function renderThumbnail(source: Buffer, o: ThumbnailOptions): Promise<{ data: Buffer; format: ImageEncoding }> {
  const meta = await sharp(source).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const left = o.left ?? 0;
  const right = o.right ?? 0;
  const top = o.top ?? 0;
  const bottom = o.bottom ?? 0;
  const fields: Record<string, string[]> = {};
  if (left + right >= width) fields.left = [`left + right must be less than the image width (${width})`];
  if (top + bottom >= height) fields.top = [`top + bottom must be less than the image height (${height})`];
  if (Object.keys(fields).length > 0) throw validationError(fields);

  let w = width - left - right;
  let h = height - top - bottom;
  let img = sharp(source);
  if (left || right || top || bottom) img = img.extract({ left, top, width: w, height: h });

  const factor = (o.scale ?? 1) * ((o.zoom ?? 100) / 100);
  if (factor !== 1) {
    w = Math.max(1, Math.round(w * factor));
    h = Math.max(1, Math.round(h * factor));
    if (w > MAX_THUMBNAIL_SIDE || h > MAX_THUMBNAIL_SIDE) throw fieldError('scale', `would make the image ${w}×${h}; each side may be at most ${MAX_THUMBNAIL_SIDE} pixels`);
    img = sharp(await img.resize(w, h, { fit: 'fill' }).png().toBuffer());
  }
  if (o.width !== undefined || o.height !== undefined) {
    // With one side given, the other follows the aspect ratio: a width of 10,000 on a full-page capture
    // 30 times taller than wide would ask for 300,000 pixels of height (minutes of CPU, gigabytes of memory).
    if (o.height === undefined && Math.round((h * (o.width as number)) / w) > MAX_THUMBNAIL_SIDE) {
      throw fieldError('width', `would make the image ${Math.round((h * (o.width as number)) / w)} pixels high; each side may be at most ${MAX_THUMBNAIL_SIDE} pixels (give height too)`);
    }
    if (o.width === undefined && Math.round((w * (o.height as number)) / h) > MAX_THUMBNAIL_SIDE) {
      throw fieldError('height', `would make the image ${Math.round((w * (o.height as number)) / h)} pixels wide; each side may be at most ${MAX_THUMBNAIL_SIDE} pixels (give width too)`);
    }
    img = img.resize(o.width ?? null, o.height ?? null, { fit: o.ratio === 'fill' ? 'cover' : 'inside' });
  }
  const format = o.format ?? 'png';
  const quality = o.quality;
  const q = quality ? { quality } : {};
  const encoded = format === 'jpeg' ? img.jpeg(q) : format === 'webp' ? img.webp(q) : format === 'avif' ? img.avif(q) : img.png();
  return { data: await encoded.toBuffer(), format };
}
