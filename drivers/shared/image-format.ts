import sharp from 'sharp';
import type { CaptureSpec, ImageFormat } from '../../core/capture-spec.js';

/** The format a buffer is in, by its magic bytes (PNG, JPEG, WebP: the three a shot can be). */
export function formatOf(image: Buffer): ImageFormat | null {
  if (image.length >= 8 && image.readUInt32BE(0) === 0x89504e47) return 'png';
  if (image.length >= 3 && image[0] === 0xff && image[1] === 0xd8 && image[2] === 0xff) return 'jpeg';
  if (image.length >= 12 && image.toString('latin1', 0, 4) === 'RIFF' && image.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** The spec's image format and quality; a spec stored before the fields existed is PNG. */
export const imageFormatOf = (spec: Pick<CaptureSpec, 'imageFormat' | 'imageQuality'>): { format: ImageFormat; quality: number } => ({
  format: spec.imageFormat ?? 'png',
  quality: spec.imageQuality ?? 80,
});

/** A lossy format Chromium encodes itself (CDP Page.captureScreenshot takes jpeg and webp with a quality). */
export interface BrowserEncoded {
  format: 'jpeg' | 'webp';
  quality: number;
}

/**
 * What Chromium's viewport shot is asked to encode: the spec's JPEG or WebP straight from the browser (one
 * encode instead of PNG then sharp), null for PNG. Tiled full pages stay PNG (they are stitched), then encoded.
 */
export function browserEncoded(spec: Pick<CaptureSpec, 'imageFormat' | 'imageQuality'>): BrowserEncoded | null {
  const { format, quality } = imageFormatOf(spec);
  return format === 'png' ? null : { format, quality };
}

/**
 * The shots in the spec's format (beyond-v1.md part 4). A shot the browser already took in that format
 * (Chromium's viewport as JPEG, take-shot.ts) is kept as it is: encoded once, by the browser. The others
 * (PNG from tiled full pages, Firefox, Selenium, element shots) are encoded here with sharp, once.
 */
export async function inSpecFormat(images: Buffer[], spec: Pick<CaptureSpec, 'imageFormat' | 'imageQuality'>): Promise<Buffer[]> {
  const { format, quality } = imageFormatOf(spec);
  return Promise.all(
    images.map(async (image) => {
      if (formatOf(image) === format) return image;
      const img = sharp(image);
      return (format === 'jpeg' ? img.jpeg({ quality }) : format === 'webp' ? img.webp({ quality }) : img.png()).toBuffer();
    }),
  );
}
