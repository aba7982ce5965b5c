/**
 * What hide_popups and hide_ads cost: capture time through the Playwright driver (chrome and firefox),
 * each option off and on, on the fixture it is for and on a plain page without popups or ads:
 * - hide_popups on a page without a banner pays the consent engine's search (CONSENT_SEARCH_MS in
 *   drivers/shared/popup-hider.ts) and the init script in every document; on a consent fixture it also
 *   pays the decline itself (the rule's own waits).
 * - hide_ads pays the request interception and the cosmetic filters; the engine is parsed once per
 *   process, so the first capture's parse is printed on its own line (`first`), not in the medians.
 * Variants alternate round by round so machine noise spreads evenly. Prints median and p90 per variant
 * (wall time of handle.capture) and the difference of the medians to the same page with the option off.
 * Run alone (make bench-popups): other work on the machine changes the times.
 */
import { performance } from 'node:perf_hooks';
import type { BrowserName, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';

const ROUNDS = Number(process.argv[2] ?? 8);

interface Variant {
  name: string;
  path: string;
  options: Partial<CaptureSpec>;
  baseline?: string;
}
const VARIANTS: Variant[] = [
  { name: 'plain page', path: '/target.html', options: {} },
  { name: 'plain page + hide_popups', path: '/target.html', options: { hidePopups: true }, baseline: 'plain page' },
  { name: 'plain page + hide_ads', path: '/target.html', options: { hideAds: true }, baseline: 'plain page' },
  { name: 'onetrust', path: '/consent/onetrust.html', options: {} },
  { name: 'onetrust + hide_popups', path: '/consent/onetrust.html', options: { hidePopups: true }, baseline: 'onetrust' },
  { name: 'ad slots', path: '/adslots/page.html', options: {} },
  { name: 'ad slots + hide_ads', path: '/adslots/page.html', options: { hideAds: true }, baseline: 'ad slots' },
];

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

async function timed(handle: BrowserHandle, browser: BrowserName, url: string, options: Partial<CaptureSpec>): Promise<number> {
  const started = performance.now();
  await handle.capture(captureSpec(browser, url, options), AbortSignal.timeout(60_000));
  return performance.now() - started;
}

async function measure(site: TestSite, browser: BrowserName): Promise<void> {
  const handle = await new PlaywrightDriver({ ffmpegPath: 'ffmpeg' }).launch(browser, {});
  try {
    await timed(handle, browser, site.url('/target.html'), {}); // the browser's first page is slower: not counted
    const first = await timed(handle, browser, site.url('/adslots/page.html'), { hideAds: true });
    console.log(`${browser}: first hide_ads capture (parses the filter list) ${first.toFixed(0)} ms`);
    const times = new Map<string, number[]>(VARIANTS.map((variant) => [variant.name, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const variant of VARIANTS) times.get(variant.name)!.push(await timed(handle, browser, site.url(variant.path), variant.options));
    }
    for (const variant of VARIANTS) {
      const values = times.get(variant.name)!;
      const median = quantile(values, 0.5);
      const added = variant.baseline ? `  (+${(median - quantile(times.get(variant.baseline)!, 0.5)).toFixed(0)} ms)` : '';
      console.log(`${browser}: ${variant.name.padEnd(26)} median ${median.toFixed(0).padStart(5)} ms  p90 ${quantile(values, 0.9).toFixed(0).padStart(5)} ms${added}`);
    }
  } finally {
    await handle.close();
  }
}

const site = await TestSite.start();
try {
  for (const browser of ['chrome', 'firefox'] as const) await measure(site, browser);
} finally {
  await site.close();
}
