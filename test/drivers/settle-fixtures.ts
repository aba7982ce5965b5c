import { near, pixel } from '../support/media-probe.js';
import sharp from 'sharp';

/**
 * The settle corpus (test/fixtures/site/settle/): pages modelled on real ones that draw their content
 * after `load`, each with a check that the late content is in a capture (800×600 viewport).
 */
export interface SettleFixture {
  name: string;
  path: string;
  /** whether the PNG shows the content the page draws after load */
  drawn: (png: Buffer) => Promise<boolean>;
}

/** Share of near-black pixels: the web font's bold glyphs cover ~13 % of the viewport, the fallback's ~7 %. */
async function darkShare(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (let at = 0; at < data.length; at += 3) if (data[at]! + data[at + 1]! + data[at + 2]! < 300) dark += 1;
  return dark / (info.width * info.height);
}

const is = async (png: Buffer, x: number, y: number, rgb: [number, number, number]): Promise<boolean> => near(await pixel(png, x, y), rgb);

export const SETTLE_FIXTURES: SettleFixture[] = [
  {
    // Modules app → dialog → text, 250 ms each, requested one after the other; the body is hidden until then.
    name: 'an AMD-style loader that hides the body until its modules have loaded',
    path: '/settle/amd-loader.html',
    drawn: async (png) => (await is(png, 50, 50, [0x20, 0x40, 0xc0])) && (await is(png, 400, 400, [255, 255, 255])),
  },
  {
    // fetch (500 ms), then XMLHttpRequest (300 ms), then the rows are rendered.
    name: 'a client-rendered table (fetch, then XHR, then render)',
    path: '/settle/client-table.html',
    drawn: (png) => is(png, 300, 20, [0x10, 0xa0, 0x50]),
  },
  {
    // The font's stylesheet (600 ms) then its file (600 ms); font-display: block hides the text meanwhile. The
    // stylesheet comes late on purpose: Playwright's Firefox screenshot waits for fonts already loading.
    name: 'a web font with a slow response',
    path: '/settle/web-font.html',
    drawn: async (png) => (await darkShare(png)) > 0.11,
  },
  {
    // An 800 ms opacity transition started after load, with an infinite spinner that must not hold the wait.
    name: 'a fade-in',
    path: '/settle/fade-in.html',
    drawn: (png) => is(png, 400, 300, [0xc0, 0x20, 0x80]),
  },
  {
    // Images get their src from an IntersectionObserver started after load; their responses take 800–900 ms.
    name: 'lazy images loaded as they enter the viewport',
    path: '/settle/lazy-images.html',
    drawn: async (png) => (await is(png, 200, 150, [0xff, 0x88, 0x00])) && (await is(png, 600, 450, [0xff, 0x88, 0x00])),
  },
];
