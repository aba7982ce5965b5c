/**
 * What the readiness options, the conditions and the blank check cost (issue 28), through the Playwright
 * driver in chrome and firefox:
 * - each option on a plain page (where it finds what it asks at once) and on its fixture (where it waits
 *   or acts), against the same page without it: wall time of handle.capture and CPU seconds of this
 *   process with its browsers (the whole process tree), medians;
 * - the blank check, which every capture pays: sharp's statistics of a 64 × 64 copy (isOneColour) of a
 *   real viewport, a full page and a very tall page, in CPU ms of this process per call, and the record's
 *   `blank_check` timing (wall, with the in-page look for visible content).
 * Variants alternate round by round so machine noise spreads evenly. Run alone (make bench-readiness):
 * other work on the machine changes the times. `node dist/test/bench/readiness-cost.js [rounds]`.
 */
import type { BrowserName, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { isOneColour } from '../../drivers/shared/blank-check.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';
import { timedCapture, type TimedCapture } from './timed-capture.js';

const ROUNDS = Number(process.argv[2] ?? 6);
/** The blank check is timed this many times per picture: one call is a few ms, under a 10 ms tick. */
const BLANK_CALLS = 20;
const LAPTOP = { name: null, width: 1280, height: 800, scale: 1, mobile: false, touch: false, landscape: false };

interface Variant {
  name: string;
  path: string;
  options: Partial<CaptureSpec>;
  baseline?: string;
}
const VARIANTS: Variant[] = [
  { name: 'plain page', path: '/readiness/tabs.html', options: {} },
  { name: 'plain + wait_for (there)', path: '/readiness/tabs.html', options: { waitFor: '#panel-overview' }, baseline: 'plain page' },
  { name: 'plain + wait_for_hidden (none)', path: '/readiness/tabs.html', options: { waitForHidden: '.spinner' }, baseline: 'plain page' },
  { name: 'plain + click ×2', path: '/readiness/tabs.html', options: { clicks: ['#tab-specs', '#tab-reviews'] }, baseline: 'plain page' },
  { name: 'plain + hover', path: '/readiness/tabs.html', options: { hover: '#menu' }, baseline: 'plain page' },
  { name: 'plain + hide_selector', path: '/readiness/tabs.html', options: { hideSelectors: ['#submenu', '.promo'] }, baseline: 'plain page' },
  { name: 'plain + css', path: '/readiness/tabs.html', options: { css: 'body { font-size: 20px; }' }, baseline: 'plain page' },
  { name: 'plain + fail_if/unless', path: '/readiness/tabs.html', options: { failIfSelector: '.error', failUnlessSelector: 'nav' }, baseline: 'plain page' },
  { name: 'spinner at load', path: '/readiness/spinner.html?ms=1500', options: { waitUntil: 'load' } },
  { name: 'spinner + wait_for_hidden', path: '/readiness/spinner.html?ms=1500', options: { waitUntil: 'load', waitForHidden: '.spinner' }, baseline: 'spinner at load' },
  { name: 'csp page', path: '/readiness/csp.html', options: {} },
  { name: 'csp + hide_selector + css', path: '/readiness/csp.html', options: { hideSelectors: ['#promo'], css: 'body { background: #008000 !important; }' }, baseline: 'csp page' },
];

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const signed = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(0)}`;

type Sample = TimedCapture;

function timed(handle: BrowserHandle, browser: BrowserName, url: string, options: Partial<CaptureSpec>): Promise<Sample> {
  return timedCapture(handle, captureSpec(browser, url, { device: LAPTOP, ...options }));
}

/** CPU ms of this process per isOneColour call on `png` (libvips' threads included). */
async function blankCheckCpuMs(png: Buffer): Promise<number> {
  await isOneColour(png);
  const before = process.cpuUsage();
  for (let i = 0; i < BLANK_CALLS; i += 1) await isOneColour(png);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / BLANK_CALLS;
}

async function measure(site: TestSite, browser: BrowserName): Promise<void> {
  const handle = await new PlaywrightDriver({ ffmpegPath: 'ffmpeg' }).launch(browser, {});
  try {
    await timed(handle, browser, site.url('/target.html'), {}); // the browser's first page is slower: not counted
    for (const [name, path, options] of [
      ['viewport 1280 × 800', '/readiness/tabs.html', {}],
      ['full page 1280 × 5000', '/long.html', { size: 'page' }],
      ['full page 1280 × 20000', '/tall?h=20000', { size: 'page' }],
    ] as const) {
      const { output } = await timed(handle, browser, site.url(path), options);
      const png = output.images[0]!;
      console.log(
        `${browser}: blank check of a ${name} (${(png.length / 1024).toFixed(0)} KiB PNG): ${(await blankCheckCpuMs(png)).toFixed(1)} ms CPU per capture; blank_check timing ${output.timings.blank_check} ms`,
      );
    }
    const samples = new Map<string, Sample[]>(VARIANTS.map((variant) => [variant.name, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const variant of VARIANTS) samples.get(variant.name)!.push(await timed(handle, browser, site.url(variant.path), variant.options));
    }
    const median = (name: string, of: (s: Sample) => number): number => quantile(samples.get(name)!.map(of), 0.5);
    for (const variant of VARIANTS) {
      const wall = median(variant.name, (s) => s.wallMs);
      const cpu = median(variant.name, (s) => s.cpuMs);
      const added = variant.baseline ? `  (${signed(wall - median(variant.baseline, (s) => s.wallMs))} ms, ${signed(cpu - median(variant.baseline, (s) => s.cpuMs))} ms CPU)` : '';
      const blankMs = median(variant.name, (s) => s.output.timings.blank_check ?? 0);
      console.log(`${browser}: ${variant.name.padEnd(32)} median ${wall.toFixed(0).padStart(5)} ms, CPU ${cpu.toFixed(0).padStart(5)} ms, blank_check ${blankMs} ms${added}`);
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
