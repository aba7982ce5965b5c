/**
 * The full-page capture of a 1280 × 100,000 px page (the default SHOTFARM_MAX_PAGE_HEIGHT) in each
 * Playwright browser, through the driver's own shot code (drivers/playwright/take-shot.ts): tiles
 * stitched by drivers/shared/png-stitch.ts (drivers/shared/tiled-shot.ts). Prints the time, the PNG's
 * size and the peak RSS of this node process and of the browser's process tree, sampled every 50 ms.
 * Run alone (make bench-tall): other work on the machine changes the times, not the memory.
 * `node dist/test/bench/tall-page.js chrome 10000 100000 1000` takes another browser, width, height and
 * pixel budget in megapixels (issue 25's page: 10000 × 100,000).
 */
import { performance } from 'node:perf_hooks';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../core/config/load-config.js';
import { DEFAULT_CAPTURE_LIMITS, DEFAULT_MAX_PAGE_HEIGHT } from '../../core/contracts/browser-driver.js';
import type { Engine } from '../../drivers/playwright/engine.js';
import { launchChromium, launchFirefox } from '../../drivers/playwright/launch-browser.js';
import { PlaywrightShots } from '../../drivers/playwright/take-shot.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { imageSize } from '../support/media-probe.js';
import { TestSite } from '../support/test-site.js';
import { childrenOf, processTreeResidents } from '../../drivers/shared/process-tree.js';

const [, , browserArg, widthArg, heightArg, budgetArg] = process.argv;
const HEIGHT = heightArg ? Number(heightArg) : DEFAULT_MAX_PAGE_HEIGHT;
const WIDTH = widthArg ? Number(widthArg) : 1280;
const LIMITS = { maxPageHeight: Math.max(HEIGHT, DEFAULT_MAX_PAGE_HEIGHT), maxCapturePixels: budgetArg ? Number(budgetArg) * 1_000_000 : DEFAULT_CAPTURE_LIMITS.maxCapturePixels };
const SAMPLE_MS = 50;
const MB = 1024 * 1024;

/** Peak RSS of this process, of its child process trees (the browser) and of the largest one of them while `work` runs. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; nodePeak: number; browserPeak: number; processPeak: number }> {
  let nodePeak = 0;
  let browserPeak = 0;
  let processPeak = 0;
  // Through the children files (drivers/shared/process-tree.ts), not a walk of all /proc: a walk took
  // ~40 ms of this process's CPU every 50 ms on the loaded machine, which slowed the stitching it measures 2×.
  const sample = (): void => {
    nodePeak = Math.max(nodePeak, process.memoryUsage.rss());
    const tree = (childrenOf(process.pid) ?? []).flatMap((child) => processTreeResidents(child));
    browserPeak = Math.max(
      browserPeak,
      tree.reduce((sum, p) => sum + p.bytes, 0),
    );
    for (const { bytes } of tree) processPeak = Math.max(processPeak, bytes);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  try {
    const result = await work();
    sample();
    return { result, nodePeak, browserPeak, processPeak };
  } finally {
    clearInterval(timer);
  }
}

async function measure(site: TestSite, browser: 'chrome' | 'firefox'): Promise<void> {
  const config = loadConfig({});
  const name = browser === 'chrome' ? 'chromium' : 'firefox';
  const engine: Engine = { browser, name, braveEmulation: false, launchedDark: false };
  const instance: Browser = browser === 'chrome' ? await launchChromium(config.agent.chromiumPath) : await launchFirefox(config.agent.firefoxPath);
  try {
    const context = await instance.newContext({ viewport: { width: WIDTH, height: 800 } });
    const page = await context.newPage();
    const url = site.url(`/tall?h=${HEIGHT}`);
    await page.goto(url);
    const shots = new PlaywrightShots(page, captureSpec(browser, url, { size: 'page' }), engine, config.agent.pngEncoding, LIMITS);
    const rssBefore = { node: process.memoryUsage.rss(), browser: 0 };
    const started = performance.now();
    const warnings: string[] = [];
    const { result: png, nodePeak, browserPeak, processPeak } = await peakRss(() => shots.fullPage(warnings));
    const seconds = (performance.now() - started) / 1000;
    const size = await imageSize(png);
    console.log(
      `${browser.padEnd(8)} ${size.width}×${size.height} PNG ${(png.length / MB).toFixed(1)} MB in ${seconds.toFixed(1)} s; ` +
        `peak RSS: node ${(nodePeak / MB).toFixed(0)} MB (${(rssBefore.node / MB).toFixed(0)} MB before), browser tree ${(browserPeak / MB).toFixed(0)} MB (its largest process ${(processPeak / MB).toFixed(0)} MB)` +
        (warnings.length > 0 ? `; warnings: ${warnings.join(' ')}` : ''),
    );
    await context.close();
  } finally {
    await instance.close();
  }
}

const site = await TestSite.start();
try {
  console.log(`full page of a ${WIDTH} × ${HEIGHT} px page, ${loadConfig({}).agent.pngEncoding} PNG encoding, pixel budget ${LIMITS.maxCapturePixels / 1_000_000} megapixels`);
  for (const browser of browserArg ? [browserArg as 'firefox' | 'chrome'] : (['firefox', 'chrome'] as const)) await measure(site, browser);
} finally {
  await site.close();
}
