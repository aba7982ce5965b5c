/**
 * Benchmark (not a test; beyond-v1.md part 1): GET /screenshot/render against create + info?wait + download
 * and against the raw Playwright loop (raw-loop.ts, `make bench`'s), in ONE run whose rounds alternate
 * between the three (the order rotates every round), at 1, 2 and 4 captures at once, Chromium viewport PNGs
 * of the test site. Both shotfarm modes go to one `shotfarm serve` child (service-processes.ts) with as many
 * slots as the concurrency; the raw loop shares one warm browser, as `make bench`'s raw mode does.
 *
 *   make bench-render      (or: node dist/test/bench/render.js [rounds] [per-round] [concurrencies])
 *
 * A fourth mode, render-unprepared, renders on a second serve with SHOTFARM_PREPARE_CONTEXTS=false.
 * It prints p50 and p95 latency, throughput, render's p50 overhead over raw (target ≤ 20 ms) and
 * render's throughput over raw (target ≥ 0.95×), and X-Render-Ms (time inside the service) at p50.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TestSite } from '../support/test-site.js';
import { CAPTURE_DEADLINE_MS, HEIGHT, PAGE_OF, WIDTH } from './bench-settings.js';
import { Cleanups } from './cleanups.js';
import { emptyCell, percentile, runRound, throughput, type CaptureFn, type Cell } from './measure.js';
import { closeRawBrowsers, launchRawBrowser, pooledCapture } from './raw-loop.js';
import { startEmbedded, type ServiceContext } from './service-processes.js';
import { shotfarmCapture, type ShotfarmApi } from './shotfarm-client.js';

const positive = (raw: string | undefined, fallback: number): number => {
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`not a positive whole number: ${raw}`);
  return n;
};
const ROUNDS = positive(process.argv[2], 4);
const PER_ROUND = positive(process.argv[3], 8);
const CONCURRENCIES = (process.argv[4] ?? '1,2,4').split(',').map((c) => positive(c.trim(), 1));
/**
 * `render-unprepared`: render on a second serve with SHOTFARM_PREPARE_CONTEXTS=false, each capture making
 * its context when it starts (main before issue 30's prepared contexts): the A/B of that change in the same run.
 */
const MODES = ['raw', 'create+wait+download', 'render', 'render-unprepared'] as const;
type Mode = (typeof MODES)[number];
/**
 * The raw loop's goto waits for `load`; the service waits by default for the page to settle (a quiet window
 * after load), which a run at load 25 on 2 cores measured at +300 ms of p50 at c1 for both shotfarm modes.
 * Like with like: both shotfarm modes ask wait_until=load (SHOTFARM_BENCH_WAIT_UNTIL=settled for the default).
 */
const WAIT_UNTIL = process.env.SHOTFARM_BENCH_WAIT_UNTIL ?? 'load';
const TARGET_P50_OVERHEAD_MS = 20;
const TARGET_THROUGHPUT_RATIO = 0.95;

/** One capture through GET /screenshot/render: the bytes in one request; its X-Render-Ms (the time inside the service) goes to `inside`. */
function renderCapture(api: ShotfarmApi, inside: number[]): CaptureFn {
  return async (url, size, _worker, signal) => {
    const started = performance.now();
    const query = new URLSearchParams({
      url,
      size,
      screen_width: String(WIDTH),
      screen_height: String(HEIGHT),
      browser: api.browser,
      wait_until: WAIT_UNTIL,
      timeout: String(CAPTURE_DEADLINE_MS / 1000),
    });
    const res = await fetch(`${api.base}/screenshot/render?${query}`, { headers: { 'X-API-KEY': api.key }, signal });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`render ${url}: HTTP ${res.status} ${Buffer.from(body).toString().slice(0, 300)}`);
    if (body.byteLength === 0) throw new Error(`render ${url}: empty image`);
    inside.push(Number(res.headers.get('x-render-ms')));
    return { ms: performance.now() - started, timings: {} };
  };
}

const fmt = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function main(): Promise<void> {
  const started = performance.now();
  const cleanups = new Cleanups();
  // A short name: Chromium's singleton socket (under the service's tmp, inside this folder) must stay under 108 bytes.
  const root = await mkdtemp(path.join(os.tmpdir(), 'sfr-'));
  cleanups.add(`remove ${root}`, () => rm(root, { recursive: true, force: true }));
  const tmp = path.join(root, 'tmp');
  await mkdir(tmp);
  process.env.TMPDIR = tmp;
  const abort = new AbortController();
  const onSignal = (): void => abort.abort(new Error('interrupted'));
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, onSignal);
  const loadBefore = os.loadavg()[0] ?? 0;
  const lines: string[] = [];
  try {
    const site = await TestSite.start();
    cleanups.add('test site', () => site.close());
    let counter = 0;
    const nextUrl = (): string => site.url(`${PAGE_OF.screen}?render=${++counter}`);
    const ctx: ServiceContext = { root, siteHost: new URL(site.url('/')).hostname, signal: abort.signal, onUnexpectedExit: (error) => abort.abort(error) };
    const raw = await launchRawBrowser('chromium');
    cleanups.add('raw browser', () => closeRawBrowsers([raw]));
    const scope = () => ({ cpu: [process.pid], rss: [process.pid] });
    lines.push(
      `render benchmark: chromium ${raw.browser.version()}, ${WIDTH}x${HEIGHT} viewport PNG of ${PAGE_OF.screen}, ${ROUNDS} rounds x ${PER_ROUND} captures per mode and concurrency, modes alternating`,
    );
    lines.push('concurrency  mode                   p50 ms  p95 ms  captures/s  vs raw p50  vs raw throughput  inside p50 ms');
    const verdicts: string[] = [];
    for (const concurrency of CONCURRENCIES) {
      const [service, unprepared] = await Promise.all([startEmbedded(ctx, 'chrome', concurrency), startEmbedded(ctx, 'chrome', concurrency, { SHOTFARM_PREPARE_CONTEXTS: 'false' })]);
      const inside: Record<'render' | 'render-unprepared', number[]> = { render: [], 'render-unprepared': [] };
      try {
        const capture: Record<Mode, CaptureFn> = {
          raw: pooledCapture(raw),
          'create+wait+download': shotfarmCapture(service.api, { wait_until: WAIT_UNTIL }),
          render: renderCapture(service.api, inside.render),
          'render-unprepared': renderCapture(unprepared.api, inside['render-unprepared']),
        };
        const cells: Record<Mode, Cell> = { raw: emptyCell(), 'create+wait+download': emptyCell(), render: emptyCell(), 'render-unprepared': emptyCell() };
        // Warm-up: the service's pool launches its browsers, every path is compiled once; not measured.
        for (const mode of MODES)
          await runRound({ cell: cells[mode], capture: capture[mode], nextUrl, size: 'screen', concurrency, captures: concurrency * 2, scope, outer: abort.signal, measured: false });
        inside.render.length = 0;
        inside['render-unprepared'].length = 0;
        for (let round = 0; round < ROUNDS; round += 1) {
          for (let i = 0; i < MODES.length; i += 1) {
            const mode = MODES[(i + round) % MODES.length] as Mode;
            await runRound({ cell: cells[mode], capture: capture[mode], nextUrl, size: 'screen', concurrency, captures: PER_ROUND, scope, outer: abort.signal, measured: true });
          }
        }
        const rawP50 = percentile(cells.raw.latencies, 50);
        const rawRate = throughput(cells.raw);
        for (const mode of MODES) {
          const cell = cells[mode];
          const p50 = percentile(cell.latencies, 50);
          const insideP50 = mode === 'render' || mode === 'render-unprepared' ? fmt(percentile(inside[mode], 50)) : '';
          lines.push(
            `${String(concurrency).padEnd(13)}${mode.padEnd(23)}${fmt(p50).padStart(6)}  ${fmt(percentile(cell.latencies, 95)).padStart(6)}  ${fmt(throughput(cell), 2).padStart(10)}  ${(mode === 'raw' ? '' : `${p50 - rawP50 >= 0 ? '+' : ''}${fmt(p50 - rawP50)} ms`).padStart(10)}  ${(mode === 'raw' ? '' : `${fmt(throughput(cell) / rawRate, 2)}x`).padStart(17)}  ${insideP50.padStart(13)}`,
          );
        }
        const overhead = percentile(cells.render.latencies, 50) - rawP50;
        const ratio = throughput(cells.render) / rawRate;
        const gain = percentile(cells['render-unprepared'].latencies, 50) - percentile(cells.render.latencies, 50);
        verdicts.push(
          `c${concurrency}: render p50 overhead ${fmt(overhead)} ms (target <= ${TARGET_P50_OVERHEAD_MS}): ${overhead <= TARGET_P50_OVERHEAD_MS ? 'met' : 'NOT met'}; throughput ${fmt(ratio, 2)}x raw (target >= ${TARGET_THROUGHPUT_RATIO}): ${ratio >= TARGET_THROUGHPUT_RATIO ? 'met' : 'NOT met'}; prepared contexts: p50 ${fmt(gain)} ms lower, throughput ${fmt(throughput(cells.render) / throughput(cells['render-unprepared']), 2)}x unprepared`,
        );
      } finally {
        await Promise.all([service.stop(), unprepared.stop()]);
      }
    }
    lines.push('', ...verdicts);
    lines.push('', `load average (1 min) before ${fmt(loadBefore, 2)}, after ${fmt(os.loadavg()[0] ?? 0, 2)} on ${os.cpus().length} cores; ${fmt((performance.now() - started) / 1000)} s`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (error) {
    const reason = abort.signal.aborted ? abort.signal.reason : error;
    process.stderr.write(`bench failed: ${reason instanceof Error ? reason.message : String(reason)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanups.runAll().catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(name, onSignal);
  }
}

await main();
