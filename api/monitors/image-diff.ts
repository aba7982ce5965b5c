import pixelmatch from 'pixelmatch';
import sharp from 'sharp';

/** A region in image pixels. */
export interface PixelBox { x: number; y: number; width: number; height: number }

export interface ImageDiff {
  /** changed pixels / compared pixels (masked pixels are not compared), 0 to 1 */
  ratio: number;
  changedPixels: number;
  comparedPixels: number;
  width: number;
  height: number;
  /** the changes in red over a faded copy of the new shot (pixelmatch's output), as PNG */
  png: Buffer;
}

/**
 * pixelmatch's per-pixel colour distance (0 to 1) under which two pixels count as the same: its
 * default, which leaves out JPEG-like noise and sub-pixel colour shifts but catches any visible change.
 */
const COLOUR_THRESHOLD = 0.1;
/** Where one shot is larger than the other, the other is padded with a colour no page paints there by chance. */
const PADDING = { r: 255, g: 0, b: 255, alpha: 1 };

async function rgba(image: Buffer, width: number, height: number): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  return sharp(image).ensureAlpha().extend({ right: width - w, bottom: height - h, background: PADDING }).raw().toBuffer();
}

/**
 * Compares two shots of one page: a perceptual pixel diff that does not count anti-aliased pixels as
 * changes (pixelmatch, over sharp's raw RGBA), with the masked boxes left out of both. Shots of different
 * sizes (a full page that grew) are compared on the larger canvas: the part only one has counts as changed.
 */
export async function diffImages(before: Buffer, after: Buffer, masks: PixelBox[]): Promise<ImageDiff> {
  const [a, b] = await Promise.all([sharp(before).metadata(), sharp(after).metadata()]);
  const width = Math.max(a.width ?? 0, b.width ?? 0);
  const height = Math.max(a.height ?? 0, b.height ?? 0);
  if (width === 0 || height === 0) throw new Error('a shot to compare has no pixels');
  const [one, two] = await Promise.all([rgba(before, width, height), rgba(after, width, height)]);
  // Masked pixels are made equal in both (transparent black), so they never count, and are not compared.
  const masked = new Uint8Array(width * height);
  for (const m of masks) {
    const x0 = Math.max(0, Math.floor(m.x));
    const y0 = Math.max(0, Math.floor(m.y));
    const x1 = Math.min(width, Math.ceil(m.x + m.width));
    const y1 = Math.min(height, Math.ceil(m.y + m.height));
    for (let y = y0; y < y1; y++) {
      masked.fill(1, y * width + x0, y * width + Math.max(x0, x1));
      one.fill(0, (y * width + x0) * 4, (y * width + Math.max(x0, x1)) * 4);
      two.fill(0, (y * width + x0) * 4, (y * width + Math.max(x0, x1)) * 4);
    }
  }
  let maskedPixels = 0;
  for (const m of masked) maskedPixels += m;
  const output = Buffer.alloc(width * height * 4);
  const changedPixels = pixelmatch(one, two, output, width, height, { threshold: COLOUR_THRESHOLD, includeAA: false });
  const comparedPixels = width * height - maskedPixels;
  const png = await sharp(output, { raw: { width, height, channels: 4 } }).png().toBuffer();
  return { ratio: comparedPixels === 0 ? 0 : changedPixels / comparedPixels, changedPixels, comparedPixels, width, height, png };
}
