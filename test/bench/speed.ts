/**
 * Benchmark (not a test; issue 8 "Speed"): shotfarm embedded (HTTP API → queue → agent → store → image
 * download) against a raw Playwright loop on the same Chromium binary and flags, in one run whose rounds
 * alternate raw / embedded so that drift of the machine (thermal, other load) hits both alike.
 *
 *   make bench                 (or: node dist/test/bench/speed.js [rounds] [captures-per-round] [concurrencies])
 *   e.g. node dist/test/bench/speed.js 3 20 1,2,4
 *
 * CPU is utime+stime (+ cutime/cstime of reaped children, so the per-capture renderers that exit before
 * the round ends still count) of this process and the browsers of the mode under test, read from
 * /proc/<pid>/stat before and after each round. Peak RSS is the sum of VmRSS over the same tree, sampled
 * every 100 ms. This process hosts both the raw loop and the whole service (API, PGlite, queue, agent),
 * so its own RSS is in both modes' numbers; the other mode's idle browser is left out of each.
 */
import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../drivers/shared/chromium-flags.js';
import { startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { childrenOf, cpuSecondsBetween, readAllStats, rssOf, treeOf, type ProcStat } from './proc-tree.js';

/** 3 alternating rounds of 20 per cell keep the default run (2 sizes × 2 concurrencies × 2 modes) near 5 minutes on 2 cores. */
const ROUNDS = Number(process.argv[2] ?? 3);
const PER_ROUND = Number(process.argv[3] ?? 20);
/** 4 doubles the run time on a 2-core machine; pass it on the command line when there is time. */
const CONCURRENCIES = (process.argv[4] ?? '1,2').split(',').map(Number);
/** The viewport the issue asks for: a common laptop size. */
const WIDTH = 1280;
const HEIGHT = 800;
/** The Chromium the service runs (Debian's package); the same binary for both modes. */
const CHROMIUM_PATH = '/usr/lib/chromium/chromium';
/** Peak RSS sampling period: the 100 ms, short next to a capture (hundreds of ms). */
const SAMPLE_MS = 100;
/** The longest the API holds an info call open for the record to finish (its `wait`, in seconds). */
const INFO_WAIT_SECONDS = 30;
/** Credits for the bench account: far more than the run uses (one per capture, warm-ups included). */
const CREDITS = 1_000_000;
/** Targets of issue 8. */
const VIEWPORT_MIN_RATIO = 0.95;
const P50_MAX_OVERHEAD_MS = 20;
const FULL_PAGE_MIN_RATIO = 1.3;

const SIZES = ['screen', 'page'] as const;
type Size = (typeof SIZES)[number];
/** Light pages of the test site: a 600 px block page for the viewport, five 1000 px blocks for the full page. */
const PAGE_OF: Record<Size, string> = { screen: '/target.html', page: '/long.html' };
const MODES = ['raw', 'embedded'] as const;
type Mode = (typeof MODES)[number];

interface Capture { ms: number; timings: Record<string, number> }
type CaptureFn = (url: string, size: Size) => Promise<Capture>;

interface Cell { captures: number; wallMs: number; latencies: number[]; cpuSeconds: number; peakRss: number; timings: Record<string, number>[] }

const emptyCell = (): Cell => ({ captures: 0, wallMs: 0, latencies: [], cpuSeconds: 0, peakRss: 0, timings: [] });
const cellKey = (mode: Mode, concurrency: number, size: Size): string => `${mode}/${concurrency}/${size}`;

/** Nearest-rank percentile of the values (p in 0..100). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** One raw capture on the warm browser: a fresh context per capture, as the service does. Phases are timed for comparison. */
function rawCapture(browser: Browser): CaptureFn {
  return async (url, size) => {
    const started = performance.now();
    const timings: Record<string, number> = {};
    let lap = started;
    const mark = (phase: string): void => {
      const now = performance.now();
      timings[phase] = now - lap;
      lap = now;
    };
    const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } });
    try {
      const page = await context.newPage();
      mark('context_page');
      await page.goto(url);
      mark('load');
      await page.screenshot({ type: 'png', fullPage: size === 'page' });
      mark('shot');
    } finally {
      await context.close();
      mark('close');
    }
    return { ms: performance.now() - started, timings };
  };
}

/** GET a path of the API with the account's key, failing on anything but 200. */
async function apiGet(api: TestApi, key: string, pathAndQuery: string): Promise<Response> {
  const res = await fetch(`${api.url}${pathAndQuery}`, { headers: { 'X-API-KEY': key } });
  if (res.status !== 200) throw new Error(`${pathAndQuery}: HTTP ${res.status} ${await res.text()}`);
  return res;
}

/** One capture through the service: create, wait for the record to finish, download the image bytes. */
function embeddedCapture(api: TestApi, key: string): CaptureFn {
  return async (url, size) => {
    const started = performance.now();
    const query = new URLSearchParams({ url, size, screen_width: String(WIDTH), screen_height: String(HEIGHT) });
    const created = await (await apiGet(api, key, `/screenshot/create?${query}`)).json() as { data: { id: number }[] };
    const id = created.data[0]?.id;
    if (id === undefined) throw new Error('create returned no record');
    const info = await (await apiGet(api, key, `/screenshot/info?id=${id}&wait=${INFO_WAIT_SECONDS}`)).json() as { data: { status: string; error?: string; timings: Record<string, number> } };
    if (info.data.status !== 'finished') throw new Error(`screenshot ${id} ${info.data.status}: ${info.data.error ?? ''}`);
    const image = await (await apiGet(api, key, `/screenshot/thumbnail?id=${id}`)).arrayBuffer();
    if (image.byteLength === 0) throw new Error(`screenshot ${id}: empty image`);
    return { ms: performance.now() - started, timings: info.data.timings };
  };
}

/** Which processes a round is charged for: this process and its children, except the other mode's browsers. */
type TreeScope = (stats: Map<number, ProcStat>) => number[];

function scopeFor(mode: Mode, rawBrowserPids: Set<number>): TreeScope {
  return (stats) => {
    const excluded = mode === 'raw'
      ? new Set(childrenOf(stats, process.pid).filter((pid) => !rawBrowserPids.has(pid)))
      : rawBrowserPids;
    return treeOf(stats, [process.pid], excluded);
  };
}

/** Samples the scoped tree's RSS every SAMPLE_MS until stopped; returns the peak. */
function startRssSampler(scope: TreeScope): () => Promise<number> {
  let peak = 0;
  let busy: Promise<void> = Promise.resolve();
  const sample = async (): Promise<void> => {
    peak = Math.max(peak, await rssOf(scope(await readAllStats())));
  };
  const timer = setInterval(() => {
    busy = busy.then(sample); // never two /proc walks at once: a slow one delays the next
  }, SAMPLE_MS);
  return async () => {
    clearInterval(timer);
    await busy.then(sample);
    return peak;
  };
}

let urlCounter = 0;
/** A distinct URL per capture, so no layer (browser or service) can answer from a cache. */
const nextUrl = (site: TestSite, size: Size): string => site.url(`${PAGE_OF[size]}?n=${++urlCounter}`);

/** One round: PER_ROUND captures by `concurrency` workers; adds its numbers to the cell. */
async function runRound(cell: Cell, capture: CaptureFn, site: TestSite, size: Size, concurrency: number, scope: TreeScope): Promise<void> {
  const before = await readAllStats();
  const stopSampler = startRssSampler(scope);
  const started = performance.now();
  let left = PER_ROUND;
  const worker = async (): Promise<void> => {
    while (left > 0) {
      left -= 1;
      const result = await capture(nextUrl(site, size), size);
      cell.latencies.push(result.ms);
      cell.timings.push(result.timings);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  cell.wallMs += performance.now() - started;
  cell.peakRss = Math.max(cell.peakRss, await stopSampler());
  const after = await readAllStats();
  cell.cpuSeconds += cpuSecondsBetween(before, after, scope(after));
  cell.captures += PER_ROUND;
}

/** Launches the raw loop's warm browser and tells which child processes are its own. */
async function launchRawBrowser(): Promise<{ browser: Browser; pids: Set<number> }> {
  const before = new Set(childrenOf(await readAllStats(), process.pid));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  const pids = new Set(childrenOf(await readAllStats(), process.pid).filter((pid) => !before.has(pid)));
  return { browser, pids };
}

/** Alternating rounds for one concurrency, with a service whose agent has that many slots. */
async function benchConcurrency(cells: Map<string, Cell>, site: TestSite, raw: CaptureFn, rawPids: Set<number>, concurrency: number): Promise<void> {
  const api = await startTestApi('pglite', {
    SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: String(concurrency), SHOTFARM_RATE_LIMIT_PER_MINUTE: '0',
  }, { agent: true });
  try {
    const account = await api.account(CREDITS);
    const embedded = embeddedCapture(api, account.key);
    // Warm-up (not measured): browser launches, JIT, first queries, for every slot and both sizes.
    for (const size of SIZES) await Promise.all(Array.from({ length: concurrency }, () => Promise.all([embedded(nextUrl(site, size), size), raw(nextUrl(site, size), size)])));
    for (let round = 0; round < ROUNDS; round++) {
      for (const size of SIZES) {
        // Each round swaps which mode goes first, so neither always runs right after the other's garbage.
        const order = round % 2 === 0 ? MODES : [...MODES].reverse();
        for (const mode of order) {
          const cell = cells.get(cellKey(mode, concurrency, size)) ?? emptyCell();
          cells.set(cellKey(mode, concurrency, size), cell);
          await runRound(cell, mode === 'raw' ? raw : embedded, site, size, concurrency, scopeFor(mode, rawPids));
          process.stderr.write(`c${concurrency} round ${round + 1}/${ROUNDS} ${size} ${mode}: ${cell.captures} captures\n`);
        }
      }
    }
  } finally {
    await api.stop();
  }
}

const throughput = (cell: Cell): number => cell.captures / (cell.wallMs / 1000);
const pad = (text: string, width: number): string => text.padStart(width);
/** Milliseconds with an explicit sign: the p50 difference to raw. */
const signed = (ms: number): string => `${ms >= 0 ? '+' : ''}${ms.toFixed(0)}`;

/** The results table: one line per (size, concurrency, mode). */
function table(cells: Map<string, Cell>): string[] {
  const header = ['size', 'conc', 'mode', 'n', 'cap/s', 'p50 ms', 'p95 ms', 'CPU s/cap', 'peak RSS MB', 'vs raw', 'p50 Δ ms'];
  const widths = [6, 4, 9, 4, 7, 7, 7, 9, 11, 7, 8];
  const lines = [header.map((h, i) => pad(h, widths[i]!)).join(' ')];
  for (const size of SIZES) {
    for (const concurrency of CONCURRENCIES) {
      const raw = cells.get(cellKey('raw', concurrency, size))!;
      for (const mode of MODES) {
        const cell = cells.get(cellKey(mode, concurrency, size))!;
        const row = [size, String(concurrency), mode, String(cell.captures), throughput(cell).toFixed(2),
          percentile(cell.latencies, 50).toFixed(0), percentile(cell.latencies, 95).toFixed(0),
          (cell.cpuSeconds / cell.captures).toFixed(3), (cell.peakRss / 1024 / 1024).toFixed(0),
          mode === 'raw' ? '1.00' : (throughput(cell) / throughput(raw)).toFixed(2),
          mode === 'raw' ? '' : signed(percentile(cell.latencies, 50) - percentile(raw.latencies, 50))];
        lines.push(row.map((text, i) => pad(text, widths[i]!)).join(' '));
      }
    }
  }
  return lines;
}

/** A target line: yes/no over every concurrency, with the worst value. */
function verdicts(cells: Map<string, Cell>): string[] {
  const ratios = (size: Size): number[] => CONCURRENCIES.map((c) => throughput(cells.get(cellKey('embedded', c, size))!) / throughput(cells.get(cellKey('raw', c, size))!));
  const overheads = CONCURRENCIES.map((c) => percentile(cells.get(cellKey('embedded', c, 'screen'))!.latencies, 50) - percentile(cells.get(cellKey('raw', c, 'screen'))!.latencies, 50));
  const viewport = Math.min(...ratios('screen'));
  const full = Math.min(...ratios('page'));
  const overhead = Math.max(...overheads);
  return [
    `viewport embedded ≥ ${VIEWPORT_MIN_RATIO}× raw at every concurrency: ${viewport >= VIEWPORT_MIN_RATIO ? 'yes' : 'no'} (worst ${viewport.toFixed(2)})`,
    `p50 overhead ≤ ${P50_MAX_OVERHEAD_MS} ms (viewport, every concurrency): ${overhead <= P50_MAX_OVERHEAD_MS ? 'yes' : 'no'} (worst ${signed(overhead)} ms)`,
    `full page ≥ ${FULL_PAGE_MIN_RATIO}× raw fullPage at every concurrency: ${full >= FULL_PAGE_MIN_RATIO ? 'yes' : 'no'} (worst ${full.toFixed(2)})`,
  ];
}

/** Mean of each phase over a cell's captures (ms), in the order the phases first appear. */
function meanPhases(cell: Cell): string {
  const sums = new Map<string, number>();
  for (const timings of cell.timings) for (const [phase, ms] of Object.entries(timings)) sums.set(phase, (sums.get(phase) ?? 0) + ms);
  return [...sums].map(([phase, sum]) => `${phase} ${(sum / cell.timings.length).toFixed(0)}`).join(', ');
}

function phaseSummary(cells: Map<string, Cell>): string[] {
  const lines = ['mean phases (ms): embedded = the record\'s `timings`; raw = this loop\'s own laps'];
  for (const size of SIZES) {
    for (const concurrency of CONCURRENCIES) {
      for (const mode of MODES) lines.push(`  ${size} c${concurrency} ${mode.padEnd(8)}: ${meanPhases(cells.get(cellKey(mode, concurrency, size))!)}`);
    }
  }
  return lines;
}

async function main(): Promise<void> {
  const site = await TestSite.start();
  const { browser, pids } = await launchRawBrowser();
  const version = browser.version();
  const cells = new Map<string, Cell>();
  const started = performance.now();
  try {
    const raw = rawCapture(browser);
    for (const concurrency of CONCURRENCIES) await benchConcurrency(cells, site, raw, pids, concurrency);
  } finally {
    await browser.close();
    await site.close();
  }
  const lines = [
    `speed: ${ROUNDS} alternating rounds × ${PER_ROUND} captures per cell, ${WIDTH}x${HEIGHT}, chromium ${version} (${CHROMIUM_PATH}), ${CONCURRENCIES.join('/')} concurrent`,
    `  pages: viewport ${PAGE_OF.screen}, full page ${PAGE_OF.page} (5000 px); local test site; run took ${((performance.now() - started) / 1000).toFixed(0)} s`,
    '  raw = playwright-core chromium.launch with CHROMIUM_FLAGS, one warm browser, per capture newContext → newPage → goto → PNG → close',
    '  embedded = startTestApi(pglite, agent, chrome, slots = concurrency): create → info?wait → thumbnail bytes',
    '  CPU = utime+stime(+reaped children) of this process + the mode\'s browser trees; RSS = same tree, sampled every 100 ms (this process hosts both modes)',
    '  skipped for time: distributed mode (NATS/Postgres), Firefox',
    '',
    ...table(cells),
    '',
    ...verdicts(cells),
    '',
    ...phaseSummary(cells),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
