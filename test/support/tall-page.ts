import sharp from 'sharp';
import { imageSize } from './media-probe.js';

/**
 * A page of any height made of 1,000 px bands, each a colour its index decides, so a stitched full-page
 * capture can be checked row by row: a missing, doubled or shifted row at a tile seam moves a band edge.
 * Tiles are whole hundreds of rows (drivers/shared/tiled-shot.ts): at 640 px wide (Chromium 16,300, Firefox
 * 8,100) seams fall inside bands; at 10,000 px (1,000) on band edges, which a shifted or doubled row moves.
 */
export const BAND_HEIGHT = 1000;

/** The RGB colour of band `index`; neighbouring bands always differ in every channel. */
export function bandColour(index: number): [number, number, number] {
  return [(index * 67 + 40) % 256, (index * 151 + 90) % 256, (index * 29 + 200) % 256];
}

/** The page at /tall?h=<height>: `height` CSS pixels of bands, nothing else. */
export function tallPageHtml(height: number): string {
  const bands: string[] = [];
  for (let top = 0, index = 0; top < height; top += BAND_HEIGHT, index += 1) {
    const [r, g, b] = bandColour(index);
    bands.push(`<div style="height:${Math.min(BAND_HEIGHT, height - top)}px;background:rgb(${r},${g},${b})"></div>`);
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>tall</title><style>html,body{margin:0}</style></head><body>${bands.join('')}</body></html>`;
}

/** Rows whose pixel in column `x` is not its band's colour, as "row: got vs wanted". */
export async function wrongRows(png: Buffer, x: number): Promise<string[]> {
  const { height } = await imageSize(png);
  // One column, so the check holds 4 bytes per row rather than the whole picture.
  const column = await sharp(png, { limitInputPixels: false }).extract({ left: x, top: 0, width: 1, height }).removeAlpha().raw().toBuffer();
  const wrong: string[] = [];
  for (let y = 0; y < height && wrong.length < 5; y += 1) {
    const want = bandColour(Math.floor(y / BAND_HEIGHT));
    const got = [column[y * 3]!, column[y * 3 + 1]!, column[y * 3 + 2]!];
    if (got.some((value, channel) => Math.abs(value - want[channel]!) > 2)) wrong.push(`${y}: ${got.join(',')} vs ${want.join(',')}`);
  }
  return wrong;
}
