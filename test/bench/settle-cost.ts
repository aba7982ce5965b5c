/**
 * What the settle wait (wait_until=settled, drivers/shared/settle-page.ts) costs on a page that has
 * already settled at load: capture latency and throughput with wait_until=load vs settled, at 1, 2 and
 * 4 captures at once, in alternating rounds (the order flips every round, so a busy moment of a shared
 * machine hits both modes alike). The wait is idle time in the page, not CPU: the CPU the captures
 * spent (this process and its browsers) is reported per capture too.
 *
 *   [BENCH_BROWSER=chrome|firefox|brave] node dist/test/bench/settle-cost.js [rounds] [captures-per-round] [concurrencies]
 *   e.g. node dist/test/bench/settle-cost.js 4 16 1,2,4     (the defaults, chrome: `make bench-settle`)
 * The browser is an environment variable because measure.ts's settings (bench-settings.ts) read the
 * positional arguments as numbers.
 *
 * Driver level (PlaywrightDriver, one warm browser per slot as SHOTFARM_CAPTURES_PER_BROWSER=1 runs
 * them): the service around the driver is the same in both modes, so it would only add noise.
 */
import { performance } from 'node:perf_hooks';
import { BROWSERS, type BrowserName, type WaitUntil } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';
import { emptyCell, percentile, runRound, throughput, type Cell, type Scope } from './measure.js';
import { treeOf } from './proc-tree.js';

const arg = (index: number, fallback: string): string => process.argv[index] ?? fallback;
/** 4 rounds flip the order twice each way; 16 captures per round and mode keep one round a few seconds long. */
const ROUNDS = Number(arg(2, '4'));
const PER_ROUND = Number(arg(3, '16'));
const CONCURRENCIES = arg(4, '1,2,4').split(',').map(Number);
const BROWSER = (process.env.BENCH_BROWSER ?? 'chrome') as BrowserName;
const MODES: WaitUntil[] = ['load', 'settled'];
/** The light page of the speed benchmark's viewport row (a 600 px block): settled once it has loaded. */
const PAGE = '/target.html';
/** Issue 30's target: the settle phase's p50 on this page, at every concurrency. */
const SETTLE_MAX_P50_MS = 15;

if (!BROWSERS.includes(BROWSER) || [ROUNDS, PER_ROUND, ...CONCURRENCIES].some((n) => !Number.isInteger(n) || n < 1)) {
  throw new Error('usage: [BENCH_BROWSER=chrome|firefox|brave] settle-cost.js [rounds ≥ 1] [captures-per-round ≥ 1] [concurrencies, e.g. 1,2,4]');
}

/** This process and every browser it started: all the CPU a capture costs. */
const scope: Scope = (stats) => {
  const tree = treeOf(stats, [process.pid], new Set());
  return { cpu: tree, rss: tree };
};

async function main(): Promise<void> {
  const site = await TestSite.start();
  const driver = new PlaywrightDriver({ ffmpegPath: 'ffmpeg' });
  const handles: BrowserHandle[] = [];
  const outer = new AbortController();
  const stop = (): void => outer.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  const results: { concurrency: number; cells: Record<WaitUntil, Cell> }[] = [];
  try {
    for (const concurrency of CONCURRENCIES) {
      while (handles.length < concurrency) handles.push(await driver.launch(BROWSER, {}));
      const cells = { load: emptyCell(), settled: emptyCell() } as Record<WaitUntil, Cell>;
      const captureIn = (waitUntil: WaitUntil) => async (url: string, _size: unknown, worker: number, signal: AbortSignal) => {
        const started = performance.now();
        // max_wait 60 s: on the shared machine (load average 25+) opening a Firefox context once took 15 s.
        const output = await handles[worker]!.capture(captureSpec(BROWSER, url, { waitUntil, maxWait: 60 }), signal);
        if (output.warnings.length > 0) throw new Error(`${url}: ${output.warnings.join(' ')}`);
        return { ms: performance.now() - started, timings: output.timings };
      };
      const round = (waitUntil: WaitUntil, measured: boolean): Promise<void> =>
        runRound({
          cell: cells[waitUntil],
          capture: captureIn(waitUntil),
          nextUrl: () => site.url(PAGE),
          size: 'screen',
          concurrency,
          captures: measured ? PER_ROUND : concurrency * 2,
          scope,
          outer: outer.signal,
          measured,
        });
      // A warm-up round per mode (page cache, first contexts) is not counted.
      for (const mode of MODES) await round(mode, false);
      for (let r = 0; r < ROUNDS; r++) {
        for (const mode of r % 2 === 0 ? MODES : [...MODES].reverse()) await round(mode, true);
      }
      results.push({ concurrency, cells });
      process.stderr.write(`c${concurrency} done\n`);
    }
  } finally {
    process.off('SIGINT', stop);
    await Promise.all(handles.map((handle) => handle.close()));
    await site.close();
  }
  report(results);
}

function report(results: { concurrency: number; cells: Record<WaitUntil, Cell> }[]): void {
  const f0 = (n: number): string => n.toFixed(0).padStart(6);
  process.stdout.write(`settle cost on ${PAGE} (already settled at load), ${BROWSER}, ${ROUNDS} rounds × ${PER_ROUND} captures per mode and concurrency\n`);
  process.stdout.write('  c  mode      captures  p50 ms  p95 ms  settle p50/p95 ms  captures/s  CPU ms/capture\n');
  for (const { concurrency, cells } of results) {
    for (const mode of MODES) {
      const cell = cells[mode];
      const settle = cell.timings.map((t) => t.settle ?? 0);
      process.stdout.write(
        `  ${concurrency}  ${mode.padEnd(8)}  ${String(cell.captures).padStart(8)}  ${f0(percentile(cell.latencies, 50))}  ${f0(percentile(cell.latencies, 95))}  ${f0(percentile(settle, 50))} /${f0(percentile(settle, 95))}     ${throughput(cell).toFixed(2).padStart(6)}  ${f0((cell.cpuSeconds * 1000) / cell.captures)}\n`,
      );
    }
    const load = cells.load;
    const settled = cells.settled;
    process.stdout.write(
      `     settled vs load: p50 ${percentile(settled.latencies, 50) - percentile(load.latencies, 50) >= 0 ? '+' : ''}${(percentile(settled.latencies, 50) - percentile(load.latencies, 50)).toFixed(0)} ms, throughput ×${(throughput(settled) / throughput(load)).toFixed(2)}\n`,
    );
  }
  const settleP50 = results.map(({ concurrency, cells }) => ({
    concurrency,
    ms: percentile(
      cells.settled.timings.map((t) => t.settle ?? 0),
      50,
    ),
  }));
  const worst = settleP50.reduce((a, b) => (b.ms > a.ms ? b : a));
  process.stdout.write(
    `target: settle phase p50 ≤ ${SETTLE_MAX_P50_MS} ms on an already settled page: ${worst.ms <= SETTLE_MAX_P50_MS ? 'yes' : 'no'} (worst ${worst.ms.toFixed(0)} ms at c${worst.concurrency})\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
