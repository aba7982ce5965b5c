/**
 * Benchmark (not a test; issue 19 item 1): where one viewport capture's CPU goes. The speed benchmark
 * (speed.ts) charges each mode for its whole process tree; this one splits the tree: shotfarm's own
 * processes (serve; or api and agent) apart from the browsers they drive, next to the raw Playwright
 * loop's browsers and the bench process itself (client, test site and, for raw, Playwright's client).
 * Then it counts the SQL statements each capture costs (knex's query log, DEBUG=knex:query, in a
 * separate pass because logging every statement costs CPU of its own).
 *
 *   node dist/test/bench/capture-cost.js [rounds] [captures-per-round] [concurrencies]   (speed.js's arguments, bench-settings.ts)
 *   e.g. node dist/test/bench/capture-cost.js 3 16 1,2
 *   profiles: SHOTFARM_BENCH_CPU_PROF=/tmp/prof node dist/test/bench/capture-cost.js …
 *             (each shotfarm process writes a .cpuprofile there when it stops; every capture of its life is in it)
 *
 * The embedded service also runs with wait_until=load beside the default (settled), which the raw loop does not
 * wait for. Rounds alternate between the modes (the order rotates), as in speed.ts, so that a loaded shared machine
 * weighs on every mode alike; CPU seconds per capture are less sensitive to that load than wall time.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TestSite } from '../support/test-site.js';
import { API_BROWSER, CONCURRENCIES, PAGE_OF, PER_ROUND, ROUNDS } from './bench-settings.js';
import { Cleanups } from './cleanups.js';
import type { LineCounter } from './managed-child.js';
import { emptyCell, percentile, runRound, throughput, type CaptureFn, type Cell } from './measure.js';
import { childrenOf, pidsNamed, readAllStats, treeOf, type ProcStat } from './proc-tree.js';
import { closeRawBrowsers, launchRawBrowser, pooledCapture, type RawBrowser } from './raw-loop.js';
import { startDistributed, startEmbedded, type Service, type ServiceContext } from './service-processes.js';
import { shotfarmCapture } from './shotfarm-client.js';

const TICKS_PER_SECOND = 100;
const MODES = ['raw', 'embedded', 'distributed'] as const;
/** Captures of the statement-counting pass (concurrency 1). */
const SQL_CAPTURES = 10;
/** knex's debug output: one line per statement sent (the `debug` module's namespace prefix). */
const KNEX_QUERY_LINE = /knex:query /;

/** Issue 30 item 1: shotfarm's own processes (serve; api + agent) per viewport capture. */
const OWN_CPU_TARGET_MS = 25;

/** CPU ticks by part of a mode, summed over its rounds. */
type Parts = Record<string, number>;

interface Runner {
  mode: string;
  capture: CaptureFn;
  /** the parts of this mode, each a list of PIDs (own CPU only, or whole subtrees), from a /proc snapshot */
  parts: (stats: Map<number, ProcStat>) => Record<string, { pids: number[]; own: boolean }>;
  cell: Cell;
  ticks: Parts;
}

/** Ticks of each part between two snapshots. */
function partTicks(before: Map<number, ProcStat>, after: Map<number, ProcStat>, parts: Record<string, { pids: number[]; own: boolean }>): Parts {
  const out: Parts = {};
  for (const [name, { pids, own }] of Object.entries(parts)) {
    let ticks = 0;
    for (const pid of pids) {
      const a = after.get(pid);
      const b = before.get(pid);
      ticks += (own ? a?.ownTicks : a?.cpuTicks) ?? 0;
      ticks -= (own ? b?.ownTicks : b?.cpuTicks) ?? 0;
    }
    out[name] = ticks;
  }
  return out;
}

/** The browsers of a shotfarm process: every subtree below it. */
const browsersOf = (stats: Map<number, ProcStat>, host: number): number[] => treeOf(stats, childrenOf(stats, host), new Set());

function serviceRunner(service: Service, options: Record<string, string> = {}): Runner {
  const names = service.mode === 'embedded' ? ['serve'] : ['api', 'agent'];
  return {
    mode: Object.keys(options).length === 0 ? service.mode : `${service.mode} ${new URLSearchParams(options).toString()}`,
    capture: shotfarmCapture(service.api, options),
    cell: emptyCell(),
    ticks: {},
    parts: (stats) => {
      const parts: Record<string, { pids: number[]; own: boolean }> = { bench: { pids: [process.pid], own: true } };
      service.shotfarm.forEach((child, i) => (parts[names[i] ?? child.name] = { pids: [child.pid], own: true }));
      parts.browsers = { pids: browsersOf(stats, service.browserHost()), own: false };
      if (service.mode === 'distributed') {
        const others = service.roots().filter((pid) => !service.shotfarm.some((c) => c.pid === pid));
        parts['nats+s3rver'] = { pids: treeOf(stats, others, new Set()), own: false };
        parts.postgres = { pids: pidsNamed(stats, 'postgres'), own: false };
      }
      return parts;
    },
  };
}

function rawRunner(raw: RawBrowser): Runner {
  return {
    mode: 'raw',
    capture: pooledCapture(raw),
    cell: emptyCell(),
    ticks: {},
    parts: (stats) => ({ bench: { pids: [process.pid], own: true }, browsers: { pids: treeOf(stats, raw.pids, new Set()), own: false } }),
  };
}

const rotate = <T>(items: readonly T[], by: number): T[] => items.map((_, i) => items[(i + by) % items.length]!);

async function main(): Promise<void> {
  const cleanups = new Cleanups();
  const root = await mkdtemp(path.join(os.tmpdir(), 'sf-cost-'));
  cleanups.add(`remove ${root}`, () => rm(root, { recursive: true, force: true }));
  const tmp = path.join(root, 'tmp');
  await mkdir(tmp);
  process.env.TMPDIR = tmp;
  const abort = new AbortController();
  const onSignal = (): void => abort.abort(new Error('interrupted'));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let counter = 0;
  const lines: string[] = [];
  const ownCpu: { concurrency: number; mode: string; ms: number }[] = [];
  try {
    const site = await TestSite.start();
    cleanups.add('test site', () => site.close());
    const nextUrl = (): string => site.url(`${PAGE_OF.screen}?n=${++counter}`);
    const context: ServiceContext = {
      root,
      siteHost: new URL(site.url('/')).hostname,
      signal: abort.signal,
      onUnexpectedExit: (error) => abort.abort(error),
    };
    lines.push(
      `capture cost: viewport ${PAGE_OF.screen}, ${ROUNDS} alternating rounds × ${PER_ROUND} captures per mode and concurrency; load average at start ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    lines.push('  CPU ms per capture by part (bench = this process: the HTTP client and test site, and for raw the Playwright client; own threads only):');
    for (const concurrency of CONCURRENCIES) {
      const local = new Cleanups();
      try {
        const runners: Runner[] = [];
        const services: (Service & { spawnedAt: number })[] = [];
        if (MODES.includes('raw')) {
          const raw = await launchRawBrowser('chromium');
          local.add('raw browser', () => closeRawBrowsers([raw]));
          runners.push(rawRunner(raw));
        }
        for (const mode of MODES.filter((m) => m !== 'raw')) {
          const service = mode === 'embedded' ? await startEmbedded(context, API_BROWSER.chromium, concurrency) : await startDistributed(context, API_BROWSER.chromium, concurrency);
          local.add(mode, () => service.stop());
          services.push({ ...service, spawnedAt: performance.now() - service.startMs });
          runners.push(serviceRunner(service));
          // The API's default wait_until is settled (a quiet page for 50 ms and 2 frames after load), which the raw
          // loop does not wait for: the same service asked to capture at load shows what that wait costs.
          if (mode === 'embedded') runners.push(serviceRunner(service, { wait_until: 'load' }));
        }
        for (const runner of runners) {
          // Warm-up: every slot's browser started, every code path run once.
          for (let i = 0; i < 2; i++)
            await runRound({
              cell: emptyCell(),
              capture: runner.capture,
              nextUrl,
              size: 'screen',
              concurrency,
              captures: concurrency * 2,
              scope: () => ({ cpu: [], rss: [] }),
              outer: abort.signal,
              measured: false,
            });
        }
        for (const service of services)
          lines.push(
            `  c${concurrency} ${service.mode}: measured rounds began ${((performance.now() - service.spawnedAt) / 1000).toFixed(1)} s after its processes started (profile-summary.js's skip-seconds)`,
          );
        for (let round = 0; round < ROUNDS; round++) {
          for (const runner of rotate(runners, round)) {
            const before = readAllStats();
            await runRound({
              cell: runner.cell,
              capture: runner.capture,
              nextUrl,
              size: 'screen',
              concurrency,
              captures: PER_ROUND,
              scope: () => ({ cpu: [], rss: [] }),
              outer: abort.signal,
              measured: true,
            });
            const after = readAllStats();
            for (const [part, ticks] of Object.entries(partTicks(before, after, runner.parts(after)))) runner.ticks[part] = (runner.ticks[part] ?? 0) + ticks;
            process.stderr.write(`c${concurrency} round ${round + 1}/${ROUNDS} ${runner.mode}: ${throughput(runner.cell).toFixed(2)} cap/s so far\n`);
          }
        }
        const msPerCapture = (runner: Runner, parts: string[]): number => (parts.reduce((sum, part) => sum + (runner.ticks[part] ?? 0), 0) / TICKS_PER_SECOND / runner.cell.captures) * 1000;
        for (const runner of runners) {
          const n = runner.cell.captures;
          const perCapture = Object.entries(runner.ticks).map(([part, ticks]) => `${part} ${((ticks / TICKS_PER_SECOND / n) * 1000).toFixed(0)}`);
          const total = Object.values(runner.ticks).reduce((a, b) => a + b, 0);
          lines.push(
            `  c${concurrency} ${runner.mode.padEnd(26)} n ${n}  ${throughput(runner.cell).toFixed(2)} cap/s  p50 ${percentile(runner.cell.latencies, 50).toFixed(0)} ms  total ${((total / TICKS_PER_SECOND / n) * 1000).toFixed(0)} ms: ${perCapture.join(', ')}`,
          );
        }
        // The raw loop's own node process runs Playwright's client, which the service pays in its own processes: its
        // share is the raw bench's CPU beyond a service's bench (both run the HTTP client or loop and the test site).
        const raw = runners.find((runner) => runner.mode === 'raw');
        for (const runner of runners.filter((r) => r.mode === 'embedded' || r.mode === 'distributed')) {
          const own = msPerCapture(runner, runner.mode === 'embedded' ? ['serve'] : ['api', 'agent']);
          const rawClient = raw ? msPerCapture(raw, ['bench']) - msPerCapture(runner, ['bench']) : Number.NaN;
          ownCpu.push({ concurrency, mode: runner.mode, ms: own });
          lines.push(
            `  c${concurrency} ${runner.mode}: shotfarm's own CPU ${own.toFixed(0)} ms per capture; beside it, the raw loop's Playwright client (raw bench − ${runner.mode} bench) ${rawClient.toFixed(0)} ms`,
          );
        }
      } finally {
        await local.runAll();
      }
    }
    if (ownCpu.length > 0) {
      const worst = ownCpu.reduce((a, b) => (b.ms > a.ms ? b : a));
      lines.push(
        `  target: shotfarm's own CPU ≤ ${OWN_CPU_TARGET_MS} ms per viewport capture (embedded and distributed, every concurrency): ${worst.ms <= OWN_CPU_TARGET_MS ? 'yes' : 'no'} (worst ${worst.ms.toFixed(0)} ms, ${worst.mode} c${worst.concurrency})`,
      );
    }
    // Statements per capture: a service of its own with knex's query log on, at concurrency 1.
    for (const mode of MODES.filter((m) => m !== 'raw')) {
      const local = new Cleanups();
      try {
        const env = { DEBUG: 'knex:query' };
        const service = mode === 'embedded' ? await startEmbedded(context, API_BROWSER.chromium, 1, env) : await startDistributed(context, API_BROWSER.chromium, 1, env);
        local.add(mode, () => service.stop());
        const capture = shotfarmCapture(service.api);
        await runRound({ cell: emptyCell(), capture, nextUrl, size: 'screen', concurrency: 1, captures: 2, scope: () => ({ cpu: [], rss: [] }), outer: abort.signal, measured: false });
        // Idle statements (the app runner's poll, the scheduler's ticks) happen per second whatever the load: measured apart.
        const idle: LineCounter = { pattern: KNEX_QUERY_LINE, count: 0 };
        for (const child of service.shotfarm) child.counters.add(idle);
        const idleStarted = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        const idlePerSecond = idle.count / ((Date.now() - idleStarted) / 1000);
        const busy: LineCounter = { pattern: KNEX_QUERY_LINE, count: 0 };
        for (const child of service.shotfarm) child.counters.add(busy);
        const busyStarted = Date.now();
        await runRound({ cell: emptyCell(), capture, nextUrl, size: 'screen', concurrency: 1, captures: SQL_CAPTURES, scope: () => ({ cpu: [], rss: [] }), outer: abort.signal, measured: false });
        // Let the last result's after-work (app runs, waiters) finish before counting.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const busySeconds = (Date.now() - busyStarted) / 1000;
        const perCapture = (busy.count - idlePerSecond * busySeconds) / SQL_CAPTURES;
        lines.push(
          `  ${mode}: ${perCapture.toFixed(1)} SQL statements per capture (${busy.count} over ${SQL_CAPTURES} captures in ${busySeconds.toFixed(1)} s, less ${idlePerSecond.toFixed(1)}/s idle)`,
        );
      } finally {
        await local.runAll();
      }
    }
    lines.push(
      `  load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (error) {
    const reason = abort.signal.aborted ? abort.signal.reason : error;
    process.stdout.write(`${lines.join('\n')}\n`);
    process.stderr.write(`capture-cost failed: ${reason instanceof Error ? reason.message : String(reason)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanups.runAll().catch((error: unknown) => process.stderr.write(`${String(error)}\n`));
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

await main();
