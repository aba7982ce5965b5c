/**
 * Benchmark (not a test): one build of the driver against another in the same process, alternating rounds,
 * Chromium, a warm browser per slot, wait_until=settled (the API's default): latency, the settle phase,
 * the blank check and this process's CPU per capture (Playwright's client, the driver, the test site). It is
 * how a change to the capture pipeline is measured before and after in the same run (docs/performance.md,
 * issue 30 points 1, 3, 4): build the old commit into another folder first.
 *
 *   git worktree add /tmp/old <commit> && (cd /tmp/old && npx tsc -p tsconfig.json) && cp -r /tmp/old/dist dist-before
 *   BENCH_BEFORE_DIST=dist-before [BENCH_SIZE=screen|page] node dist/test/bench/driver-ab.js [rounds] [per-round] [concurrency]
 * (the numbers as bench-settings.ts reads them; the old build inside this checkout, so that it finds node_modules)
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import type { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';
import { CONCURRENCIES, PAGE_OF, PER_ROUND, ROUNDS, SIZES, type Size } from './bench-settings.js';
import { percentile } from './measure.js';

const beforeDist = process.env.BENCH_BEFORE_DIST;
const SIZE = (process.env.BENCH_SIZE ?? 'screen') as Size;
if (!beforeDist || !SIZES.includes(SIZE)) throw new Error('usage: BENCH_BEFORE_DIST=<old dist> [BENCH_SIZE=screen|page] driver-ab.js [rounds] [per-round] [concurrency]');
const BEFORE_DIST: string = beforeDist;
const CONCURRENCY = CONCURRENCIES[0]!;

interface Mode {
  name: string;
  handles: BrowserHandle[];
  latencies: number[];
  timings: Record<string, number>[];
  cpuMs: number;
}

async function driverFrom(dist: string): Promise<PlaywrightDriver> {
  const module = (await import(pathToFileURL(path.resolve(dist, 'drivers/playwright/playwright-driver.js')).href)) as { PlaywrightDriver: typeof PlaywrightDriver };
  return new module.PlaywrightDriver({ ffmpegPath: 'ffmpeg' });
}

async function main(): Promise<void> {
  const site = await TestSite.start();
  const modes: Mode[] = [];
  try {
    for (const [name, dist] of [
      ['before', BEFORE_DIST],
      ['after', path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..')],
    ] as const) {
      const driver = await driverFrom(dist);
      const handles: BrowserHandle[] = [];
      for (let i = 0; i < CONCURRENCY; i++) handles.push(await driver.launch('chrome', {}));
      modes.push({ name, handles, latencies: [], timings: [], cpuMs: 0 });
    }
    const round = async (mode: Mode, captures: number, measured: boolean): Promise<void> => {
      let left = captures;
      const cpu = process.cpuUsage();
      await Promise.all(
        mode.handles.map(async (handle) => {
          while (left-- > 0) {
            const started = performance.now();
            const output = await handle.capture(captureSpec('chrome', site.url(PAGE_OF[SIZE]), { waitUntil: 'settled', size: SIZE, maxWait: 60 }), AbortSignal.timeout(120_000));
            if (output.warnings.length > 0) throw new Error(`${mode.name}: ${output.warnings.join(' ')}`);
            if (measured) {
              mode.latencies.push(performance.now() - started);
              mode.timings.push(output.timings);
            }
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      if (measured) mode.cpuMs += (used.user + used.system) / 1000;
    };
    const loadAtStart = os.loadavg()[0]!;
    for (const mode of modes) await round(mode, CONCURRENCY * 2, false);
    for (let r = 0; r < ROUNDS; r++) for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) await round(mode, PER_ROUND, true);
    process.stdout.write(`driver A/B, chromium ${SIZE} c${CONCURRENCY}, ${ROUNDS} alternating rounds × ${PER_ROUND}; load average ${loadAtStart.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}\n`);
    for (const mode of modes) {
      const phase = (name: string, p: number): string =>
        percentile(
          mode.timings.map((t) => t[name] ?? 0),
          p,
        ).toFixed(0);
      process.stdout.write(
        `  ${mode.name.padEnd(6)} n ${mode.latencies.length}  p50 ${percentile(mode.latencies, 50).toFixed(0)} ms  settle p50 ${phase('settle', 50)} p95 ${phase('settle', 95)}  shots p50 ${phase('shots', 50)}  blank_check p50 ${phase('blank_check', 50)}  this process's CPU ${(mode.cpuMs / mode.latencies.length).toFixed(1)} ms/capture\n`,
      );
    }
  } finally {
    await Promise.all(modes.flatMap((mode) => mode.handles.map((handle) => handle.close())));
    await site.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
