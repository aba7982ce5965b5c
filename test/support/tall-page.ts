/**
 * A page of any height made of 1,000 px bands, each a colour its index decides, so a stitched full-page
 * capture can be checked row by row: a missing, doubled or shifted row at a tile seam moves a band edge.
 * The band height divides no tile height the drivers use (16,384 device px), so seams fall inside bands.
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
