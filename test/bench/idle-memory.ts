/**
 * Idle memory benchmark (not a test): what an embedded `shotfarm serve` holds after work, and what the
 * first capture after a pause costs. For each slots × warm minimum (SHOTFARM_POOL_WARM_BROWSERS) it starts
 * `serve` with its default browsers and idle timeout, then prints:
 *  - the RSS of the whole process tree (serve and its browsers) right after a burst of captures at
 *    `slots` at once, and after IDLE_WAIT_S without work (the browsers above the warm minimum closed);
 *  - the node's own report of it (rssBytes of /admin/nodes), as a cross-check;
 *  - the latency of the first capture after the pause against the median of warm captures after it.
 * Then the distributed deployment (`shotfarm api` and `shotfarm agent` at 1 slot, warm minimum 0): the RSS of
 * the api process and of the agent's tree (agent and browsers) after start, after a burst and after the idle wait.
 *
 *   make bench-idle          (or: node dist/test/bench/idle-memory.js [slots list] [warm list] [idle wait s])
 *
 * BENCH_IDLE_PARTS (default `embedded,cycles,distributed`) picks the sections to run.
 * About 10 minutes with the defaults (5 services idling a minute each, then 2 × 6 short idle cycles and 5 launches).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TestSite } from '../support/test-site.js';
import { measureLaunchCost, median } from './launch-cost.js';
import { percentile } from './measure.js';
import { readAllStats, rssOf, treeOf } from './proc-tree.js';
import { startDistributed, startEmbedded, type Service } from './service-processes.js';
import { shotfarmCapture } from './shotfarm-client.js';

const SLOTS = (process.argv[2] ?? '1,4').split(',').map(Number);
const WARM = (process.argv[3] ?? '0,1').split(',').map(Number);
/** "after a minute without work": the target is read at this point. */
const IDLE_WAIT_S = Number(process.argv[4] ?? 60);
/** Captures of the burst per slot: enough for every slot's browser to be started and busy. */
const BURST_PER_SLOT = 8;
/** Warm captures after the first one: their median is the yardstick of the first. */
const WARM_AFTER = 5;
/**
 * The first capture after idle, measured again and again: a service with a 1 s idle timeout, waited out
 * (IDLE_CYCLE_WAIT_MS, past the timeout and its check) before each cold capture, then one warm capture.
 * The 60 s runs give one cold sample each, too few on a shared machine.
 */
const IDLE_CYCLES = 6;
const IDLE_CYCLE_WAIT_MS = 3_000;
/**
 * The browsers `serve` offers: chrome alone by default, as `make bench` runs it (the 1.2 / 3.0 GB were
 * read there); `chrome,firefox,brave` is serve's own default (each offered browser is started once at start).
 */
const BROWSERS = process.argv[5] ?? 'chrome';
/**
 * The sections to run, from the environment: the positional arguments from the 2nd on are also read by
 * bench-settings.ts (imported through service-processes.ts), which wants whole numbers there.
 */
const PARTS = new Set((process.env.BENCH_IDLE_PARTS ?? 'embedded,cycles,distributed').split(','));

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  slots: number;
  warm: number;
  afterStart: number;
  afterBurst: number;
  afterIdle: number;
  serveAfterIdle: number;
  reported: number | null;
  firstMs: number;
  warmMs: number;
  browsersAfterIdle: number;
}

/** RSS of the service's tree and of its own process alone, and how many direct children (browsers) its process has. */
function treeNow(service: Service): { rss: number; serve: number; browsers: number } {
  const stats = readAllStats();
  const tree = treeOf(stats, service.roots(), new Set([process.pid]));
  const browsers = [...stats.values()].filter((s) => s.ppid === service.browserHost() && s.comm !== 'node').length;
  return { rss: rssOf(tree), serve: rssOf([service.browserHost()]), browsers };
}

async function reportedRss(service: Service): Promise<number | null> {
  const res = await fetch(`${service.api.base}/admin/nodes`, { headers: { 'X-API-KEY': service.api.key } });
  const body = (await res.json()) as { data: { rssBytes?: number | null }[] };
  return body.data[0]?.rssBytes ?? null;
}

async function one(root: string, site: TestSite, slots: number, warm: number, signal: AbortSignal, onExit: (e: Error) => void): Promise<Row> {
  const service = await startEmbedded({ root, siteHost: new URL(site.url('/')).hostname, signal, onUnexpectedExit: onExit }, 'chrome', slots, {
    SHOTFARM_AGENT_BROWSERS: BROWSERS,
    SHOTFARM_POOL_WARM_BROWSERS: String(warm),
  });
  try {
    const capture = shotfarmCapture(service.api);
    const url = (n: string): string => site.url(`/target.html?idle=${n}`);
    const afterStart = treeNow(service).rss;
    let next = 0;
    await Promise.all(
      Array.from({ length: slots }, async (_, worker) => {
        while (next < slots * BURST_PER_SLOT) await capture(url(`burst-${slots}-${warm}-${next++}`), 'screen', worker, signal);
      }),
    );
    const afterBurst = treeNow(service).rss;
    process.stderr.write(`slots ${slots} warm ${warm}: after start ${mb(afterStart)}, after the burst ${mb(afterBurst)}; idling ${IDLE_WAIT_S} s\n`);
    for (let waited = 0; waited < IDLE_WAIT_S; waited += 10) {
      await sleep(Math.min(10, IDLE_WAIT_S - waited) * 1000);
      const now = treeNow(service);
      process.stderr.write(`  ${Math.min(waited + 10, IDLE_WAIT_S)} s idle: ${mb(now.rss)} (serve itself ${mb(now.serve)}), ${now.browsers} browser processes\n`);
    }
    const idle = treeNow(service);
    // The heartbeat carries rssBytes: wait one beat (5 s by default) so the registry has a reading from the idle tree.
    await sleep(6_000);
    const reported = await reportedRss(service);
    const firstMs = (await capture(url(`first-${slots}-${warm}`), 'screen', 0, signal)).ms;
    const warmMs: number[] = [];
    for (let i = 0; i < WARM_AFTER; i++) warmMs.push((await capture(url(`warm-${slots}-${warm}-${i}`), 'screen', 0, signal)).ms);
    return { slots, warm, afterStart, afterBurst, afterIdle: idle.rss, serveAfterIdle: idle.serve, reported, firstMs, warmMs: percentile(warmMs, 50), browsersAfterIdle: idle.browsers };
  } finally {
    await service.stop();
  }
}

interface Cycles {
  warm: number;
  cold: number[];
  warmMs: number[];
  browsersBeforeCold: number[];
}

/** IDLE_CYCLES pairs of (first capture after idle, the capture right after it) at 1 slot. */
async function cycles(root: string, site: TestSite, warm: number, signal: AbortSignal, onExit: (e: Error) => void): Promise<Cycles> {
  const service = await startEmbedded({ root, siteHost: new URL(site.url('/')).hostname, signal, onUnexpectedExit: onExit }, 'chrome', 1, {
    SHOTFARM_AGENT_BROWSERS: BROWSERS,
    SHOTFARM_POOL_WARM_BROWSERS: String(warm),
    SHOTFARM_POOL_IDLE_SECONDS: '1',
  });
  const out: Cycles = { warm, cold: [], warmMs: [], browsersBeforeCold: [] };
  try {
    const capture = shotfarmCapture(service.api);
    const url = (n: string): string => site.url(`/target.html?idle=${n}`);
    await capture(url(`cycle-untimed-${warm}`), 'screen', 0, signal); // page and font caches
    for (let i = 0; i < IDLE_CYCLES; i++) {
      await sleep(IDLE_CYCLE_WAIT_MS);
      out.browsersBeforeCold.push(treeNow(service).browsers);
      out.cold.push((await capture(url(`cycle-cold-${warm}-${i}`), 'screen', 0, signal)).ms);
      out.warmMs.push((await capture(url(`cycle-warm-${warm}-${i}`), 'screen', 0, signal)).ms);
    }
  } finally {
    await service.stop();
  }
  process.stderr.write(`cycles warm ${warm}: cold ${out.cold.map((ms) => ms.toFixed(0)).join(', ')} ms; warm ${out.warmMs.map((ms) => ms.toFixed(0)).join(', ')} ms\n`);
  return out;
}

interface DistributedRow {
  slots: number;
  api: { afterStart: number; afterBurst: number; afterIdle: number };
  agent: { afterStart: number; afterBurst: number; afterIdle: number };
  reported: number | null;
}

/** `shotfarm api` and `shotfarm agent` (1 slot, no warm browser): each one's tree before, after a burst, and after IDLE_WAIT_S. */
async function distributed(root: string, site: TestSite, signal: AbortSignal, onExit: (e: Error) => void): Promise<DistributedRow> {
  const slots = 1;
  const service = await startDistributed({ root, siteHost: new URL(site.url('/')).hostname, signal, onUnexpectedExit: onExit }, 'chrome', slots, { SHOTFARM_POOL_WARM_BROWSERS: '0' });
  // roots(): nats, s3rver, api, agent, in start order; the agent is the browser host.
  const apiPid = service.roots()[2]!;
  const agentPid = service.browserHost();
  const read = (): { api: number; agent: number } => {
    const stats = readAllStats();
    return { api: rssOf(treeOf(stats, [apiPid], new Set([process.pid]))), agent: rssOf(treeOf(stats, [agentPid], new Set([process.pid]))) };
  };
  try {
    const capture = shotfarmCapture(service.api);
    const start = read();
    for (let i = 0; i < slots * BURST_PER_SLOT; i++) await capture(site.url(`/target.html?idle=distributed-${i}`), 'screen', 0, signal);
    const burst = read();
    process.stderr.write(`distributed: api ${mb(burst.api)}, agent tree ${mb(burst.agent)} after the burst; idling ${IDLE_WAIT_S} s\n`);
    await sleep(IDLE_WAIT_S * 1000);
    const idle = read();
    await sleep(6_000); // one heartbeat: the registry's reading is from the idle tree
    return {
      slots,
      api: { afterStart: start.api, afterBurst: burst.api, afterIdle: idle.api },
      agent: { afterStart: start.agent, afterBurst: burst.agent, afterIdle: idle.agent },
      reported: await reportedRss(service),
    };
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'shotfarm-idle-'));
  const site = await TestSite.start();
  const abort = new AbortController();
  const rows: Row[] = [];
  const pairs: Cycles[] = [];
  let launchMs = 0;
  let farm: DistributedRow | null = null;
  try {
    if (PARTS.has('embedded')) for (const slots of SLOTS) for (const warm of WARM) rows.push(await one(root, site, slots, warm, abort.signal, (e) => abort.abort(e)));
    if (PARTS.has('cycles')) {
      for (const warm of WARM) pairs.push(await cycles(root, site, warm, abort.signal, (e) => abort.abort(e)));
      launchMs = median((await measureLaunchCost('chromium', abort.signal)).readyMs);
    }
    if (PARTS.has('distributed')) farm = await distributed(root, site, abort.signal, (e) => abort.abort(e));
  } finally {
    await site.close();
    await rm(root, { recursive: true, force: true });
  }
  const lines = [
    `idle memory, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${new Date().toISOString()}`,
  ];
  if (rows.length > 0)
    lines.push(
      '',
      `embedded serve (browsers ${BROWSERS}, default idle timeout)`,
      '| slots | warm browsers | tree RSS after start | after the burst | after ' +
        `${IDLE_WAIT_S} s idle | of it serve itself | node's own report | browser processes left | first capture after idle | warm capture (median of ${WARM_AFTER}) |`,
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.slots} | ${r.warm} | ${mb(r.afterStart)} | ${mb(r.afterBurst)} | ${mb(r.afterIdle)} | ${mb(r.serveAfterIdle)} | ${r.reported === null ? '-' : mb(r.reported)} | ${r.browsersAfterIdle} | ${r.firstMs.toFixed(0)} ms | ${r.warmMs.toFixed(0)} ms |`,
      ),
    );
  if (pairs.length > 0)
    lines.push(
      '',
      `first capture after idle, 1 slot, 1 s idle timeout, ${IDLE_CYCLES} cycles (medians; a Chromium launch to first page here: ${launchMs.toFixed(0)} ms)`,
      '| warm browsers | browser processes before it | first capture after idle | the capture after it | added by idle |',
      '|---|---|---|---|---|',
      ...pairs.map(
        (c) => `| ${c.warm} | ${c.browsersBeforeCold.join(', ')} | ${median(c.cold).toFixed(0)} ms | ${median(c.warmMs).toFixed(0)} ms | ${(median(c.cold) - median(c.warmMs)).toFixed(0)} ms |`,
      ),
    );
  if (farm)
    lines.push(
      '',
      `distributed: shotfarm api and shotfarm agent (${farm.slots} slot, warm browsers 0), RSS of each one's process tree`,
      `| process | after start | after the burst | after ${IDLE_WAIT_S} s idle | node's own report |`,
      '|---|---|---|---|---|',
      `| api | ${mb(farm.api.afterStart)} | ${mb(farm.api.afterBurst)} | ${mb(farm.api.afterIdle)} | - |`,
      `| agent and its browsers | ${mb(farm.agent.afterStart)} | ${mb(farm.agent.afterBurst)} | ${mb(farm.agent.afterIdle)} | ${farm.reported === null ? '-' : mb(farm.reported)} |`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
