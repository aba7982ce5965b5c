import pixelmatch from 'pixelmatch';
import sharp from 'sharp';

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

async function rgba(image: Buffer, width: number, height: number, scaled: { width: number; height: number }): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  const padded = sharp(image)
    .ensureAlpha()
    .extend({ right: width - w, bottom: height - h, background: PADDING });
  if (scaled.width === width && scaled.height === height) return padded.raw().toBuffer();
  // Two pipelines: sharp resizes before it extends within one, and the padding must be scaled too.
  const full = await padded.png({ compressionLevel: 0 }).toBuffer();
  return sharp(full).resize(scaled.width, scaled.height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
}

/**
 * Compares two shots of one page: a perceptual pixel diff that does not count anti-aliased pixels as
 * changes (pixelmatch, over sharp's raw RGBA), with the masked boxes left out of both. Shots of different
 * sizes (a full page that grew) are compared on the larger canvas: the part only one has counts as changed.
 */
export async function diffImages(before: Buffer, after: Buffer, masks: PixelBox[]): Promise<ImageDiff> {
  const [a, b] = await Promise.all([sharp(before).metadata(), sharp(after).metadata()]);
  const fullWidth = Math.max(a.width ?? 0, b.width ?? 0);
  const fullHeight = Math.max(a.height ?? 0, b.height ?? 0);
  if (fullWidth === 0 || fullHeight === 0) throw new Error('a shot to compare has no pixels');
  const scale = Math.min(1, Math.sqrt(MAX_COMPARED_PIXELS / (fullWidth * fullHeight)));
  const width = Math.max(1, Math.round(fullWidth * scale));
  const height = Math.max(1, Math.round(fullHeight * scale));
  const [one, two] = await Promise.all([rgba(before, fullWidth, fullHeight, { width, height }), rgba(after, fullWidth, fullHeight, { width, height })]);
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
