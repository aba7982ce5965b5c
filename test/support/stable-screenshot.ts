import type { Browser } from 'playwright-core';
import sharp from 'sharp';

/**
 * Share of pixels (0–1) whose colour differs by more than `tolerance` in any channel: 0 for the same
 * picture, whatever the PNG encoding; a size mismatch counts as entirely different.
 */
export async function differingShare(a: Buffer, b: Buffer, tolerance = 32): Promise<number> {
  const [left, right] = await Promise.all([a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  if (left!.info.width !== right!.info.width || left!.info.height !== right!.info.height) return 1;
  let differing = 0;
  for (let at = 0; at < left!.data.length; at += 3) {
    if (
      Math.abs(left!.data[at]! - right!.data[at]!) > tolerance ||
      Math.abs(left!.data[at + 1]! - right!.data[at + 1]!) > tolerance ||
      Math.abs(left!.data[at + 2]! - right!.data[at + 2]!) > tolerance
    )
      differing += 1;
  }
  return differing / (left!.info.width * left!.info.height);
}

/** Screenshots this far apart are compared; a page is visually stable once `STABLE_SHOTS` in a row match. */
const INTERVAL_MS = 250;
const STABLE_SHOTS = 4;
/** Pixels allowed to change between "equal" shots: a 20 px spinner (an infinite animation) is ~0.1 %. */
const STABLE_SHARE = 0.005;

/**
 * The reference a capture of a late-drawing page is checked against: a plain Playwright loop that
 * loads the page in a fresh 800×600 context and screenshots it every 250 ms until four shots in a row
 * (0.75 s) show the same picture, then returns the last. Slow, which is why it is the reference and
 * not the service's method; it throws when the page never holds still within `timeoutMs`.
 */
export async function stableScreenshot(browser: Browser, url: string, timeoutMs = 10_000): Promise<Buffer> {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const until = Date.now() + timeoutMs;
    let last = await page.screenshot({ type: 'png' });
    for (let same = 1; same < STABLE_SHOTS;) {
      if (Date.now() > until) throw new Error(`${url} did not hold still within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
      const shot = await page.screenshot({ type: 'png' });
      same = (await differingShare(last, shot)) <= STABLE_SHARE ? same + 1 : 1;
      last = shot;
    }
    return last;
  } finally {
    await context.close();
  }
}
