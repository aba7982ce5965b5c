import sharp from 'sharp';

/** The image is read at most this big (long side): 64×64 is 4,096 pixels, enough for five colours. */
const SAMPLE_SIDE = 64;
/** Each channel is bucketed to 4 bits (4,096 buckets): shades a person calls one colour fall together. */
const BITS = 4;
/** Two colours at most this far apart on every channel count as one (about two buckets' width). */
const DISTINCT = 24;

/**
 * Up to `count` dominant, distinct colours of a PNG, `#rrggbb`, most frequent first: each is the mean of the pixels in
 * one bucket of the 4-bit-per-channel colour cube, on a copy downscaled to 64 px (sharp's resize decodes
 * with shrink-on-load, so a tall full-page PNG costs its decode, not a palette search over millions of pixels).
 * Transparent pixels are flattened on white, as a viewer shows them.
 */
export async function dominantColors(png: Buffer, count = 5): Promise<string[]> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'inside' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const shift = 8 - BITS;
  const buckets = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (let i = 0; i + 2 < data.length; i += info.channels) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    const key = ((r >> shift) << (2 * BITS)) | ((g >> shift) << BITS) | (b >> shift);
    const bucket = buckets.get(key);
    if (bucket) {
      bucket.n += 1;
      bucket.r += r;
      bucket.g += g;
      bucket.b += b;
    } else buckets.set(key, { n: 1, r, g, b });
  }
  // A flat colour whose value sits on a bucket's edge fills two neighbouring buckets (#f4efe6 and #f7f3ea on
  // one beige page): a colour within DISTINCT of one already chosen is the same colour to a person.
  const chosen: [number, number, number][] = [];
  for (const { n, r, g, b } of [...buckets.values()].sort((x, y) => y.n - x.n)) {
    const rgb: [number, number, number] = [r / n, g / n, b / n];
    if (chosen.some((c) => c.every((v, i) => Math.abs(v - rgb[i]!) <= DISTINCT))) continue;
    chosen.push(rgb);
    if (chosen.length === count) break;
  }
  const hex = (v: number): string => Math.round(v).toString(16).padStart(2, '0');
  return chosen.map(([r, g, b]) => `#${hex(r)}${hex(g)}${hex(b)}`);
}
