import pixelmatch from 'pixelmatch';
import sharp, { type Metadata } from 'sharp';

/** A region in image pixels. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ImageDiff {
  /** changed pixels / compared pixels (masked pixels are not compared), 0 to 1; width and height are the compared canvas */
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

/**
 * Pixels compared at most: 16 M (64 MB per RGBA buffer, three of them). A taller full page is compared
 * scaled down to this, both shots alike; a change still shows, only finer anti-aliasing is blurred.
 */
const MAX_COMPARED_PIXELS = 16_000_000;

/**
 * The largest shot a comparison reads: 10,000 × 100,000, the widest viewport by the tallest full page the
 * options allow at device scale 1. Each shot is shrunk while it is decoded (sequential read: libvips holds a
 * band of rows, not the image), so the memory is the 16 M compared pixels' whatever the shot's size; only the
 * time grows with it. sharp's own default (268 M pixels, 16,383²) refused full pages above it, and the
 * comparison failed without a word (issue 25).
 */
export const MAX_SHOT_PIXELS = 1_000_000_000;

/** A comparison that could not be made, with the plain sentence the run shows. */
export class ComparisonError extends Error {}

/** One shot shrunk by `scale` while it is read, on a canvas of the compared size (padded where it is smaller). */
async function rgba(image: Buffer, size: { width: number; height: number }, scale: number, canvas: { width: number; height: number }): Promise<Buffer> {
  const width = Math.min(canvas.width, Math.max(1, Math.round(size.width * scale)));
  const height = Math.min(canvas.height, Math.max(1, Math.round(size.height * scale)));
  let shot = sharp(image, { limitInputPixels: MAX_SHOT_PIXELS, sequentialRead: true });
  if (width !== size.width || height !== size.height) shot = shot.resize(width, height, { fit: 'fill' });
  // Within one pipeline sharp resizes, then extends: the padding is added at the compared scale.
  return shot
    .ensureAlpha()
    .extend({ right: canvas.width - width, bottom: canvas.height - height, background: PADDING })
    .raw()
    .toBuffer();
}

/** A shot's size from its header, refused (with the sentence a run shows) when it has none or is too large to compare. */
export async function shotSize(image: Buffer, which: 'previous' | 'new'): Promise<{ width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(image, { limitInputPixels: false }).metadata();
  } catch {
    throw new ComparisonError(`The comparison could not be made: the ${which} shot is not an image that can be read`);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width === 0 || height === 0) throw new ComparisonError(`The comparison could not be made: the ${which} shot has no pixels`);
  if (width * height > MAX_SHOT_PIXELS) {
    throw new ComparisonError(`The comparison could not be made: the ${which} shot is ${width} × ${height} pixels, more than the ${MAX_SHOT_PIXELS.toLocaleString('en-US')} a comparison reads`);
  }
  return { width, height };
}

/**
 * Compares two shots of one page: a perceptual pixel diff that does not count anti-aliased pixels as
 * changes (pixelmatch, over sharp's raw RGBA), with the masked boxes left out of both. Shots of different
 * sizes (a full page that grew) are compared on the larger canvas: the part only one has counts as changed.
 * A shot that cannot be compared throws a ComparisonError saying why.
 */
export async function diffImages(before: Buffer, after: Buffer, masks: PixelBox[]): Promise<ImageDiff> {
  const [a, b] = await Promise.all([shotSize(before, 'previous'), shotSize(after, 'new')]);
  const fullWidth = Math.max(a.width, b.width);
  const fullHeight = Math.max(a.height, b.height);
  const scale = Math.min(1, Math.sqrt(MAX_COMPARED_PIXELS / (fullWidth * fullHeight)));
  const width = Math.max(1, Math.round(fullWidth * scale));
  const height = Math.max(1, Math.round(fullHeight * scale));
  let one: Buffer;
  let two: Buffer;
  try {
    // One after the other: a shot's decoding holds a band of its rows, and two at once would double it.
    one = await rgba(before, a, scale, { width, height });
    two = await rgba(after, b, scale, { width, height });
  } catch (err) {
    throw new ComparisonError(`The comparison could not be made: a shot could not be decoded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
  // Masked pixels are made equal in both (transparent black), so they never count, and are not compared.
  const masked = new Uint8Array(width * height);
  for (const box of masks) {
    const m = { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale };
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
  const png = await sharp(output, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  return { ratio: comparedPixels === 0 ? 0 : changedPixels / comparedPixels, changedPixels, comparedPixels, width, height, png };
}
