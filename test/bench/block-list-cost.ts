/**
 * What blocking by category costs (issue 28 point 4), through the Playwright driver in chrome and firefox:
 * - building the maintained lists' engines, ONCE per process (AdGuard's rule sets read, turned into
 *   filters and parsed): wall and CPU ms per category, and the process's resident memory after;
 * - matching one request against every category's engine, in µs (what each request of a page pays);
 * - each option on a plain page (no third parties: the lists find nothing) and on the article with the
 *   usual third parties (test/fixtures/third-parties), against the same page without it: wall time of
 *   handle.capture and CPU ms of this process with its browsers, medians.
 * Variants alternate round by round so machine noise spreads evenly. `node dist/test/bench/block-list-cost.js [rounds]`.
 */
import { performance } from 'node:perf_hooks';
import { Request } from '@ghostery/adblocker';
import type { BrowserName, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { defaultFilterListPath } from '../../drivers/shared/filter-list-path.js';
import { MaintainedEngines } from '../../drivers/shared/block-lists/maintained-engines.js';
import { LIST_CATEGORIES } from '../../drivers/shared/block-lists/maintained-lists.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';
import { ThirdPartySite } from '../support/third-party-site.js';
import { timedCapture } from './timed-capture.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const MATCHES = 20_000;
const ARTICLE = 'http://news.test/blocking/article.html';
const HOSTS = [
  'news.test',
  'js.driftt.com',
  'embed.tawk.to',
  'ekr.zdassets.com',
  'widget.intercom.io',
  'client.crisp.chat',
  'static.zdassets.com',
  'js.usemessages.com',
  's7.addthis.com',
  'w.sharethis.com',
  'platform.twitter.com',
  'static.bufferapp.com',
  'www.google-analytics.com',
  'static.hotjar.com',
  'www.facebook.com',
  'pagead2.googlesyndication.com',
];

const OPTIONS: [string, Partial<CaptureSpec>][] = [
  ['off', {}],
  ['block_chats', { blockChats: true }],
  ['block_social', { blockSocial: true }],
  ['block_trackers', { blockTrackers: true }],
  ['hide_ads', { hideAds: true }],
  ['all four', { blockChats: true, blockSocial: true, blockTrackers: true, hideAds: true }],
  ['block_resources=image', { blockResources: ['image'] }],
  ['block_urls ×2', { blockUrls: ['*hotjar*', 'http://embed.tawk.to/*'] }],
];

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const signed = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(0)}`;

async function loadOnce(): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const engines = new MaintainedEngines([defaultFilterListPath()]);
  await engines.warm(LIST_CATEGORIES);
  const wall = performance.now() - started;
  for (const cost of MaintainedEngines.loadCosts()) console.log(`lists: ${cost.category.padEnd(8)} ${String(cost.filters).padStart(6)} filters, built in ${cost.wallMs} ms wall, ${cost.cpuMs} ms CPU`);
  console.log(`lists: all four built once per process in ${wall.toFixed(0)} ms wall; resident memory +${((process.memoryUsage().rss - rssBefore) / 1048576).toFixed(0)} MiB`);
  const urls = ['http://cdn.news.test/app.js', 'http://www.google-analytics.com/analytics.js', 'http://img.news.test/photo-1.jpg', 'http://js.driftt.com/include/1/a.js'];
  const requests = urls.map((url) => Request.fromRawDetails({ url, sourceUrl: ARTICLE, type: 'script' }));
  const all = await Promise.all(LIST_CATEGORIES.map((category) => engines.of(category)));
  const t0 = performance.now();
  for (let i = 0; i < MATCHES; i += 1) for (const engine of all) engine.match(requests[i % requests.length]!);
  console.log(`lists: one request against all four engines: ${(((performance.now() - t0) * 1000) / MATCHES).toFixed(1)} µs`);
}

function timed(handle: BrowserHandle, spec: CaptureSpec): Promise<{ wallMs: number; cpuMs: number }> {
  return timedCapture(handle, spec);
}

async function measure(browser: BrowserName, plainUrl: string, thirdParties: ThirdPartySite): Promise<void> {
  const handle = await new PlaywrightDriver({ ffmpegPath: 'ffmpeg' }).launch(browser, {});
  try {
    const pages: [string, (o: Partial<CaptureSpec>) => CaptureSpec][] = [
      ['plain page', (o) => captureSpec(browser, plainUrl, o)],
      ['article with third parties', (o) => ({ ...captureSpec(browser, ARTICLE, o), proxy: thirdParties.proxy.url })],
    ];
    for (const [, spec] of pages) await timed(handle, spec({})); // the first page of a browser is slower: not counted
    const samples = new Map<string, { wallMs: number; cpuMs: number }[]>();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [page, spec] of pages) {
        for (const [name, options] of OPTIONS) {
          const key = `${page}|${name}`;
          samples.set(key, [...(samples.get(key) ?? []), await timed(handle, spec(options))]);
        }
      }
    }
    for (const [page] of pages) {
      const off = samples.get(`${page}|off`)!;
      for (const [name] of OPTIONS) {
        const s = samples.get(`${page}|${name}`)!;
        const wall = median(s.map((x) => x.wallMs));
        const cpu = median(s.map((x) => x.cpuMs));
        const added = name === 'off' ? '' : `  (${signed(wall - median(off.map((x) => x.wallMs)))} ms, ${signed(cpu - median(off.map((x) => x.cpuMs)))} ms CPU)`;
        console.log(`${browser}: ${page.padEnd(27)} ${name.padEnd(22)} median ${wall.toFixed(0).padStart(5)} ms, CPU ${cpu.toFixed(0).padStart(5)} ms${added}`);
      }
    }
  } finally {
    await handle.close();
  }
}

await loadOnce();
const site = await TestSite.start();
const thirdParties = await ThirdPartySite.start(HOSTS);
try {
  for (const browser of ['chrome', 'firefox'] as const) await measure(browser, site.url('/readiness/tabs.html'), thirdParties);
} finally {
  await thirdParties.close();
  await site.close();
}
