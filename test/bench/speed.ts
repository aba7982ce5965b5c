/**
 * Benchmark (not a test; issue 8 "Speed"): shotfarm against a raw Playwright loop on the same browser
 * binaries and flags, in ONE run whose rounds alternate between the modes (the order rotates every
 * round: A B C, B C A, C A B …) so that drift of the machine (thermal, other load) hits every mode alike.
 *
 *   make bench      (or: node dist/test/bench/speed.js [rounds] [per-round] [concurrencies] [firefox-concurrency] [firefox-rounds])
 *   smoke run:      node dist/test/bench/speed.js 1 3 1,2
 *
 * Modes (each is described again in the printed header):
 * - raw: playwright-core in this process, one warm browser, per capture newContext → newPage → goto →
 *   PNG → close (raw-loop.ts); raw-per-slot: the same with one warm browser per worker (concurrency > 1);
 *   raw-naive: the same on a Chromium with Playwright's default flags (issue 30's naive loop, one concurrency).
 * - embedded: `shotfarm serve` as a child process; distributed: `shotfarm api` + one `shotfarm agent`
 *   over a private NATS, s3rver and Postgres, all child processes (service-processes.ts). Both are
 *   driven through the HTTP API as a client does (shotfarm-client.ts). Running them as children keeps
 *   their CPU and memory apart from the raw loop's, which shared this process before and was distorted.
 * Chromium runs every concurrency; Firefox compares raw with embedded at one concurrency. Launch cost
 * (launch-cost.ts) is measured first, while nothing else runs.
 *
 * Time of the default run (Chromium 4 rounds × 8 captures at concurrency 1/2/4, Firefox 2 rounds × 8 at 2) on
 * the 2-core reference machine: about 6.5 minutes (2 rounds took 249 s: launch cost ~25 s, then each
 * concurrency's service starts, warm-ups and rounds). The run prints how long it took.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TestSite } from '../support/test-site.js';
import {
  API_BROWSER,
  CAPTURES_PER_BROWSER,
  CHROMIUM_PATH,
  CONCURRENCIES,
  FIREFOX_CONCURRENCY,
  FIREFOX_PATH,
  FIREFOX_ROUNDS,
  HEIGHT,
  NAIVE_CONCURRENCY,
  PAGE_OF,
  PER_ROUND,
  ROUNDS,
  SAMPLE_MS,
  SIZES,
  WIDTH,
  type BrowserKind,
  type Size,
} from './bench-settings.js';
import { Cleanups } from './cleanups.js';
import { measureLaunchCost, type LaunchCost } from './launch-cost.js';
import { runRound, throughput, type CaptureFn, type Scope } from './measure.js';
import { childrenOf, pidsNamed, readAllStats, treeOf } from './proc-tree.js';
import { closeRawBrowsers, launchNaiveChromium, launchRawBrowser, perSlotCapture, pooledCapture, type RawBrowser } from './raw-loop.js';
import { launchTable, phaseSummary, Results, resultsTable, verdicts, type Mode } from './report.js';
import { startDistributed, startEmbedded, type Service, type ServiceContext } from './service-processes.js';
import { shotfarmCapture } from './shotfarm-client.js';

/**
 * A mode ready to run rounds: how it captures, which processes it is charged for, and for a service,
 * how many browsers it has started (its pool starts them on demand, one per SHOTFARM_CAPTURES_PER_BROWSER slots).
 */
interface ModeRunner {
  mode: Mode;
  capture: CaptureFn;
  scope: Scope;
  browsers?: () => number;
}

/**
 * Charged for this process (the client, the test site, the /proc sampler: alike in every mode) and the roots' trees;
 * shown apart: shotfarm's own processes (`service`, none for raw) and the browsers' trees (below `browserParents`).
 */
function scopeOf(roots: () => number[], chargesPostgres: boolean, service: () => number[], browserParents: () => number[]): Scope {
  return (stats) => {
    const tree = treeOf(stats, roots(), new Set());
    const browsers = treeOf(
      stats,
      browserParents().flatMap((parent) => childrenOf(stats, parent)),
      new Set(),
    );
    // Postgres is the machine's server, not a child: its CPU counts, its RSS (shared buffers counted once per process) does not.
    return { cpu: [process.pid, ...tree, ...(chargesPostgres ? pidsNamed(stats, 'postgres') : [])], rss: [process.pid, ...tree], service: service(), browsers };
  };
}

const rawRunner = (mode: 'raw' | 'raw-per-slot' | 'raw-naive', browsers: RawBrowser[]): ModeRunner => {
  const pids = (): number[] => browsers.flatMap((b) => b.pids);
  return {
    mode,
    capture: mode === 'raw-per-slot' ? perSlotCapture(browsers) : pooledCapture(browsers[0]!),
    // The raw browsers' trees are their own roots (children of this process, which is not charged as a browser).
    scope: (stats) => ({
      ...scopeOf(
        pids,
        false,
        () => [],
        () => [],
      )(stats),
      browsers: treeOf(stats, pids(), new Set()),
    }),
  };
};

const serviceRunner = (service: Service): ModeRunner => ({
  mode: service.mode,
  capture: shotfarmCapture(service.api),
  scope: scopeOf(
    () => service.roots(),
    service.chargesPostgres,
    () => service.shotfarm.map((child) => child.pid),
    () => [service.browserHost()],
  ),
  browsers: () => childrenOf(readAllStats(), service.browserHost()).length,
});

/**
 * SHOTFARM_PREPARE_CONTEXTS of the bench's environment goes to the services (they start from a clean one):
 * `SHOTFARM_PREPARE_CONTEXTS=false make bench` measures them without prepared contexts. The same run's A/B
 * of that setting is `make bench-render`'s render-unprepared mode.
 */
const SERVICE_ENV: NodeJS.ProcessEnv = process.env.SHOTFARM_PREPARE_CONTEXTS === undefined ? {} : { SHOTFARM_PREPARE_CONTEXTS: process.env.SHOTFARM_PREPARE_CONTEXTS };

/** Warm-up rounds that may be added while a service's pool has fewer browsers than it will run: each one is a chance for it to grow. */
const MAX_EXTRA_WARMUPS = 3;
/** The browsers a service with the default settings runs for `slots` (SHOTFARM_CAPTURES_PER_BROWSER lanes share one). */
const servicesBrowsers = (slots: number): number => Math.ceil(slots / CAPTURES_PER_BROWSER);

/** `items` rotated left by `by`: round r starts with the r-th mode, so no mode is always first or always after the same one. */
const rotate = <T>(items: readonly T[], by: number): T[] => items.map((_, i) => items[(i + by) % items.length]!);

class Bench {
  readonly results = new Results();
  readonly serviceStarts: string[] = [];
  readonly serviceStops: string[] = [];
  private urlCounter = 0;

  /** `abort`: the whole run's; aborted by the first failure or signal, with the reason. */
  constructor(
    private readonly site: TestSite,
    readonly services: Omit<ServiceContext, 'signal' | 'onUnexpectedExit'>,
    readonly abort: AbortController,
  ) {}

  get context(): ServiceContext {
    return { ...this.services, signal: this.abort.signal, onUnexpectedExit: (error) => this.fail(error) };
  }

  /** Stops the bench with this reason: the running round fails with it, and cleanup follows. */
  fail(error: Error): void {
    if (this.abort.signal.aborted) return;
    process.stderr.write(`bench: stopping: ${error.message}\n`);
    this.abort.abort(error);
  }

  /** A distinct URL per capture, so no layer (browser or service) can answer from a cache. */
  nextUrl = (size: Size): string => this.site.url(`${PAGE_OF[size]}?n=${++this.urlCounter}`);

  /**
   * Starts services together (they wait on different things: migrations, NATS, a browser launch, so
   * together is quicker than one after the other), and registers one cleanup that stops them together.
   * A start that fails stops the ones that did start before the error goes up.
   */
  async startServices(starts: [what: string, start: () => Promise<Service>][], cleanups: Cleanups): Promise<Service[]> {
    process.stderr.write(`starting ${starts.map(([what]) => what).join(' and ')}\n`);
    const settled = await Promise.allSettled(starts.map(([, start]) => start()));
    const running = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [{ what: starts[i]![0], service: s.value }] : []));
    cleanups.add('services', async () => {
      await Promise.all(
        running.map(async ({ what, service }) => {
          const stopping = performance.now();
          await service.stop();
          this.serviceStops.push(`${what} ${((performance.now() - stopping) / 1000).toFixed(1)} s`);
        }),
      );
    });
    for (const { what, service } of running) this.serviceStarts.push(`${what} ${(service.startMs / 1000).toFixed(1)} s`);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    return running.map(({ service }) => service);
  }

  /**
   * Warm-up (not measured), then alternating rounds of `runners` at one concurrency. The warm-up runs one
   * viewport capture per slot at once, so a service's pool starts a browser for every slot (it starts
   * them on demand: a launch inside a measured round would cost it a second or more), then one full-page
   * capture so that code path has run too. A service that still has fewer browsers than slots gets
   * another viewport round, a few times at most.
   */
  async rounds(browser: BrowserKind, concurrency: number, runners: ModeRunner[], rounds: number): Promise<void> {
    const outer = this.abort.signal;
    const warm = (runner: ModeRunner, size: Size, captures: number): Promise<void> =>
      runRound({
        cell: this.results.cell(browser, size, concurrency, runner.mode),
        capture: runner.capture,
        nextUrl: this.nextUrl,
        size,
        concurrency,
        captures,
        scope: runner.scope,
        outer,
        measured: false,
      });
    for (const runner of runners) {
      await warm(runner, 'screen', concurrency);
      const expected = servicesBrowsers(concurrency);
      for (let extra = 0; runner.browsers && extra < MAX_EXTRA_WARMUPS && runner.browsers() < expected; extra++) await warm(runner, 'screen', concurrency);
      await warm(runner, 'page', 1);
      const count = runner.browsers?.();
      const started = count === undefined ? '' : `, ${count} of ${expected} browser(s) started${count < expected ? ' (a launch may fall into a measured round)' : ''}`;
      process.stderr.write(`${browser} c${concurrency} ${runner.mode}: warmed up${started}\n`);
    }
    for (let round = 0; round < rounds; round++) {
      const order = rotate(runners, round);
      for (const size of SIZES) {
        for (const runner of order) {
          const cell = this.results.cell(browser, size, concurrency, runner.mode);
          const wallBefore = cell.wallMs;
          await runRound({ cell, capture: runner.capture, nextUrl: this.nextUrl, size, concurrency, captures: PER_ROUND, scope: runner.scope, outer, measured: true });
          const roundRate = PER_ROUND / ((cell.wallMs - wallBefore) / 1000);
          process.stderr.write(
            `${browser} c${concurrency} round ${round + 1}/${rounds} ${size} ${runner.mode}: ${roundRate.toFixed(2)} cap/s (cell ${throughput(cell).toFixed(2)}, n ${cell.captures})\n`,
          );
        }
      }
    }
  }

  /** Chromium at one concurrency: raw (the bench-wide warm browser), raw per slot, embedded, distributed. */
  async chromium(concurrency: number, pooled: RawBrowser): Promise<void> {
    const cleanups = new Cleanups();
    try {
      const services = await this.startServices(
        [
          [`embedded chrome c${concurrency}`, () => startEmbedded(this.context, API_BROWSER.chromium, concurrency, SERVICE_ENV)],
          [`distributed chrome c${concurrency}`, () => startDistributed(this.context, API_BROWSER.chromium, concurrency, SERVICE_ENV)],
        ],
        cleanups,
      );
      const runners = [rawRunner('raw', [pooled])];
      if (concurrency > 1) {
        const perSlot: RawBrowser[] = [];
        cleanups.add('per-slot browsers', () => closeRawBrowsers(perSlot));
        for (let i = 0; i < concurrency; i++) perSlot.push(await launchRawBrowser('chromium'));
        runners.push(rawRunner('raw-per-slot', perSlot));
      }
      if (concurrency === NAIVE_CONCURRENCY) {
        const naive = await launchRawBrowser('chromium', launchNaiveChromium);
        cleanups.add('naive browser', () => closeRawBrowsers([naive]));
        runners.push(rawRunner('raw-naive', [naive]));
      }
      runners.push(...services.map(serviceRunner));
      await this.rounds('chromium', concurrency, runners, ROUNDS);
    } finally {
      await cleanups.runAll();
    }
  }

  /** Firefox at one concurrency: raw (one warm browser) and embedded. Returns the browser's version. */
  async firefox(concurrency: number): Promise<string> {
    const cleanups = new Cleanups();
    try {
      const raw = await launchRawBrowser('firefox');
      cleanups.add('raw firefox', () => closeRawBrowsers([raw]));
      const services = await this.startServices([[`embedded firefox c${concurrency}`, () => startEmbedded(this.context, API_BROWSER.firefox, concurrency)]], cleanups);
      await this.rounds('firefox', concurrency, [rawRunner('raw', [raw]), ...services.map(serviceRunner)], FIREFOX_ROUNDS);
      return raw.browser.version();
    } finally {
      await cleanups.runAll();
    }
  }
}

function header(bench: Bench, versions: Record<BrowserKind, string>, runSeconds: number): string[] {
  return [
    `speed (issue 8): ${ROUNDS} alternating rounds × ${PER_ROUND} captures per cell (firefox: ${FIREFOX_ROUNDS} rounds); the mode order rotates each round; after an unmeasured warm-up; ${WIDTH}x${HEIGHT}`,
    `  pages of the local test site: viewport ${PAGE_OF.screen}, full page ${PAGE_OF.page} (5000 px); a new URL per capture; run took ${runSeconds.toFixed(0)} s`,
    `  chromium ${versions.chromium} (${CHROMIUM_PATH}, CHROMIUM_FLAGS) at concurrency ${CONCURRENCIES.join('/')}; firefox ${versions.firefox} (${FIREFOX_PATH} over WebDriver BiDi, FIREFOX_PREFS) at ${FIREFOX_CONCURRENCY}`,
    '  modes:',
    '    raw           playwright-core in the bench process: one warm browser shared by all workers; per capture newContext(1280x800) → newPage → goto → PNG (fullPage for full page) → context.close',
    '    raw-per-slot  the same loop, each worker with a warm browser of its own (concurrency > 1)',
    `    raw-naive     the same loop on a Chromium launched with Playwright's defaults (no CHROMIUM_FLAGS): what a user writes first (c${NAIVE_CONCURRENCY} only)`,
    '    embedded      child `node dist/bin/shotfarm.js serve`: PGlite and files in a fresh data dir, in-process queue, agent with slots = concurrency;',
    '                  per capture GET /api/v1/screenshot/create → /screenshot/info?wait=30 until finished → /screenshot/thumbnail (the stored PNG, not re-encoded)',
    "    distributed   children: private `nats-server -js`, s3rver (own process), `shotfarm.js api` on a throwaway database of the machine's Postgres, `shotfarm.js agent --slots <concurrency>`; same client calls",
    "    both services: SSRF guard on with only the test site's host allowlisted, rate limit off, LOG_LEVEL=warn; started per concurrency, idle while other modes run",
    `  CPU s/cap: utime+stime (+ reaped children's) from /proc, per round, of the bench process (client, test site, sampler: alike in every mode) plus`,
    "    raw: its own browsers' trees; embedded: the serve tree; distributed: the nats, s3rver, api and agent trees + every process named postgres",
    '    on the machine (the server is not our child: CPU only, and other users of that server would count too). Idle services are outside every scope.',
    "    of it: svc = shotfarm's own processes (serve; api + agent), their own threads only; browsers = the browsers' process trees",
    '    (raw: the Playwright client runs in the bench process, which is in every row and in neither column)',
    `  peak RSS: sum of VmRSS over the same processes without postgres, sampled every ${SAMPLE_MS} ms`,
    `  service start (spawn → API ready → agent registered; a concurrency's two services start together): ${bench.serviceStarts.join(', ')}`,
    `  service stop (SIGTERM → every process gone, folders and database removed): ${bench.serviceStops.join(', ')}`,
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const cleanups = new Cleanups();
  // Everything temporary of this run lives here, removed at the end whatever happens.
  const root = await mkdtemp(path.join(os.tmpdir(), 'shotfarm-bench-'));
  cleanups.add(`remove ${root}`, () => rm(root, { recursive: true, force: true }));
  const tmp = path.join(root, 'tmp');
  await mkdir(tmp);
  // Playwright's profile folders of the bench's own browsers go there too.
  process.env.TMPDIR = tmp;
  const abort = new AbortController();
  let interrupted = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupted += 1;
    // A second Ctrl-C does not wait for the cleanup: the exit hook kills the children's groups.
    if (interrupted > 1) process.exit(130);
    process.stderr.write(`bench: ${signal}: stopping and cleaning up (again to quit at once)\n`);
    abort.abort(new Error(`interrupted by ${signal}`));
  };
  // SIGHUP too: a closed terminal must not leave the services running.
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, onSignal);
  try {
    const site = await TestSite.start();
    cleanups.add('test site', () => site.close());
    const bench = new Bench(site, { root, siteHost: new URL(site.url('/')).hostname }, abort);
    const { signal } = abort;
    signal.throwIfAborted();
    const launchCosts: LaunchCost[] = [];
    for (const kind of ['chromium', 'firefox'] as const) launchCosts.push(await measureLaunchCost(kind, signal));
    const pooled = await launchRawBrowser('chromium');
    const versions: Record<BrowserKind, string> = { chromium: pooled.browser.version(), firefox: '' };
    try {
      for (const concurrency of CONCURRENCIES) {
        signal.throwIfAborted();
        await bench.chromium(concurrency, pooled);
      }
    } finally {
      await closeRawBrowsers([pooled]);
    }
    signal.throwIfAborted();
    versions.firefox = await bench.firefox(FIREFOX_CONCURRENCY);
    const lines = [
      ...header(bench, versions, (performance.now() - started) / 1000),
      '',
      ...resultsTable(bench.results),
      '',
      ...verdicts(bench.results),
      '',
      'browser launch cost (launch → first page ready; then closed; after one untimed launch):',
      ...launchTable(launchCosts, bench.results).map((line) => `  ${line}`),
      '',
      ...phaseSummary(bench.results),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (error) {
    // The reason the bench stopped (a service that died, Ctrl-C) explains more than what failed because of it.
    const reason = abort.signal.aborted ? abort.signal.reason : error;
    process.stderr.write(`bench failed: ${reason instanceof Error ? reason.message : String(reason)}\n`);
    process.exitCode = 1;
  } finally {
    process.stderr.write('cleaning up\n');
    await cleanups.runAll().catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(name, onSignal);
  }
}

await main();
