/**
 * What extraction costs per capture (issue 29, markdown=1 and metadata=1), through the Playwright driver in
 * chrome and firefox, on the article fixture (test/fixtures/site/extract/article.html) and on the long page
 * (test/fixtures/site/long.html, ~5,000 px of text):
 * - each variant against the same page without extraction: wall time of handle.capture and CPU of this process
 *   with its browsers (the whole process tree), medians, and the record's `extract` timing (wall);
 * - the in-page work alone, without the capture around it: the Markdown and the metadata made IN_PAGE_RUNS times in
 *   a loaded page, CPU ms of the whole tree (browser and this process) per run: the number a capture pays;
 * - the dominant colours (sharp, in the agent) alone: CPU ms of this process per call on a viewport and a full page.
 * Variants alternate round by round so machine noise spreads evenly; say the machine's load with the numbers.
 * `node dist/test/bench/extract-cost.js [rounds]` (make bench-extract).
 */
import { loadavg } from 'node:os';
import type { BrowserName, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { launchChromium, launchFirefox } from '../../drivers/playwright/launch-browser.js';
import { dominantColors } from '../../drivers/shared/dominant-colors.js';
import { pageMarkdownFunction } from '../../drivers/shared/page-markdown.js';
import { pageDescription } from '../../drivers/page-scripts/page-description.js';
import { loadConfig } from '../../core/config/load-config.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';
import { cpuSecondsBetween, readAllStats, treeOf } from './proc-tree.js';
import { timedCapture, type TimedCapture } from './timed-capture.js';

const ROUNDS = Number(process.argv[2] ?? 8);
/** The colours are timed this many times per picture: one call is a few ms, under a 10 ms tick. */
const COLOUR_CALLS = 20;
const LAPTOP = { name: null, width: 1280, height: 800, scale: 1, mobile: false, touch: false, landscape: false };

interface Variant {
  name: string;
  options: Partial<CaptureSpec>;
}
const VARIANTS: Variant[] = [
  { name: 'no extraction', options: {} },
  { name: 'markdown (main)', options: { markdown: true } },
  { name: 'markdown (full)', options: { markdown: true, markdownMode: 'full' } },
  { name: 'metadata', options: { metadata: true } },
  { name: 'markdown + metadata', options: { markdown: true, metadata: true } },
];
const PAGES = [
  ['article', '/extract/article.html'],
  ['long article', '/extract/long-article.html'],
] as const;
/** In-page extraction timed alone: this many runs on one loaded page, CPU of the browser's tree divided by them. */
const IN_PAGE_RUNS = 20;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const signed = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(0)}`;

type Sample = TimedCapture;

function timed(handle: BrowserHandle, browser: BrowserName, url: string, options: Partial<CaptureSpec>): Promise<Sample> {
  return timedCapture(handle, captureSpec(browser, url, { device: LAPTOP, waitUntil: 'load', ...options }));
}

async function colourCpuMs(png: Buffer): Promise<number> {
  await dominantColors(png);
  const before = process.cpuUsage();
  for (let i = 0; i < COLOUR_CALLS; i += 1) await dominantColors(png);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / COLOUR_CALLS;
}

/** CPU ms of the process tree per in-page run of `work` on `url`, in a raw Playwright page (no capture around it). */
async function inPageCpuMs(browser: BrowserName, url: string): Promise<Record<string, number>> {
  const config = loadConfig({});
  const raw = browser === 'firefox' ? await launchFirefox(config.agent.firefoxPath) : await launchChromium(config.agent.chromiumPath);
  try {
    const page = await raw.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url, { waitUntil: 'load' });
    const markdown = pageMarkdownFunction();
    const works: Record<string, () => Promise<unknown>> = {
      'markdown (main)': () => page.evaluate(markdown, 'main' as const),
      'markdown (full)': () => page.evaluate(markdown, 'full' as const),
      metadata: () => page.evaluate(pageDescription),
    };
    const out: Record<string, number> = {};
    for (const [name, work] of Object.entries(works)) {
      await work();
      const before = readAllStats();
      for (let i = 0; i < IN_PAGE_RUNS; i += 1) await work();
      const after = readAllStats();
      out[name] = (cpuSecondsBetween(before, after, treeOf(after, [process.pid], new Set())) * 1000) / IN_PAGE_RUNS;
    }
    return out;
  } finally {
    await raw.close();
  }
}

async function measure(site: TestSite, browser: BrowserName): Promise<void> {
  for (const [pageName, path] of PAGES) {
    const cpu = await inPageCpuMs(browser, site.url(path));
    console.log(
      `${browser}: ${pageName}: in-page CPU per run: ${Object.entries(cpu)
        .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
        .join(', ')}`,
    );
  }
  const handle = await new PlaywrightDriver({ ffmpegPath: 'ffmpeg' }).launch(browser, {});
  try {
    await timed(handle, browser, site.url('/target.html'), { markdown: true, metadata: true }); // first page and first assembly: not counted
    for (const [name, options] of [
      ['viewport 1280 × 800', {}],
      ['full page of the long page', { size: 'page' }],
    ] as const) {
      const { output } = await timed(handle, browser, site.url(name.startsWith('viewport') ? '/extract/article.html' : '/long.html'), options);
      const png = output.images[0]!;
      console.log(`${browser}: dominant colours of a ${name} (${(png.length / 1024).toFixed(0)} KiB PNG): ${(await colourCpuMs(png)).toFixed(1)} ms CPU per capture (agent)`);
    }
    for (const [pageName, path] of PAGES) {
      const samples = new Map<string, Sample[]>(VARIANTS.map((v) => [v.name, []]));
      for (let round = 0; round < ROUNDS; round += 1) for (const v of VARIANTS) samples.get(v.name)!.push(await timed(handle, browser, site.url(path), v.options));
      const base = samples.get('no extraction')!;
      for (const v of VARIANTS) {
        const s = samples.get(v.name)!;
        const wall = median(s.map((x) => x.wallMs));
        const cpu = median(s.map((x) => x.cpuMs));
        const extract = median(s.map((x) => x.output.timings.extract ?? 0));
        const added = v.name === 'no extraction' ? '' : `  (${signed(wall - median(base.map((x) => x.wallMs)))} ms, ${signed(cpu - median(base.map((x) => x.cpuMs)))} ms CPU)`;
        const size = s[0]!.output.markdown ? `, ${(s[0]!.output.markdown.length / 1024).toFixed(1)} KiB of Markdown` : '';
        console.log(`${browser}: ${pageName.padEnd(10)} ${v.name.padEnd(20)} median ${wall.toFixed(0).padStart(5)} ms, CPU ${cpu.toFixed(0).padStart(5)} ms, extract ${extract} ms${added}${size}`);
      }
    }
  } finally {
    await handle.close();
  }
}

console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (2 cores)`,
);
const site = await TestSite.start();
try {
  for (const browser of ['chrome', 'firefox'] as const) await measure(site, browser);
} finally {
  await site.close();
}
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
