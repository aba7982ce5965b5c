/**
 * Idle memory benchmark (not a test): what an embedded `shotfarm serve` holds after work, and what the
 * first capture after a pause costs. For each slots × warm minimum (SHOTFARM_POOL_WARM_BROWSERS) it starts
 * `serve` with its default browsers and idle timeout, then prints:
 *  - the RSS of the whole process tree (serve and its browsers) right after a burst of captures at
 *    `slots` at once, and after IDLE_WAIT_S without work (the browsers above the warm minimum closed);
 *  - the node's own report of it (rssBytes of /admin/nodes), as a cross-check;
 *  - the latency of the first capture after the pause against the median of warm captures after it.
 *
 *   make bench-idle          (or: node dist/test/bench/idle-memory.js [slots list] [warm list] [idle wait s])
 *
 * About 6 minutes with the defaults (4 services, a minute of idling each).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TestSite } from '../support/test-site.js';
import { percentile } from './measure.js';
import { readAllStats, rssOf, treeOf } from './proc-tree.js';
import { startEmbedded, type Service } from './service-processes.js';
import { shotfarmCapture } from './shotfarm-client.js';

const SLOTS = (process.argv[2] ?? '1,4').split(',').map(Number);
const WARM = (process.argv[3] ?? '0,1').split(',').map(Number);
/** "after a minute without work": the target is read at this point. */
const IDLE_WAIT_S = Number(process.argv[4] ?? 60);
/** Captures of the burst per slot: enough for every slot's browser to be started and busy. */
const BURST_PER_SLOT = 8;
/** Warm captures after the first one: their median is the yardstick of the first. */
const WARM_AFTER = 5;
/** The browsers `serve` offers when nothing is set (core/capture-spec.ts BROWSERS, those installed). */
const DEFAULT_BROWSERS = 'chrome,firefox,brave';

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Row { slots: number; warm: number; afterStart: number; afterBurst: number; afterIdle: number; reported: number | null; firstMs: number; warmMs: number; browsersAfterIdle: number }

/** RSS of the service's tree, and how many direct children (browsers) its process has. */
function treeNow(service: Service): { rss: number; browsers: number } {
  const stats = readAllStats();
  const tree = treeOf(stats, service.roots(), new Set([process.pid]));
  const browsers = [...stats.values()].filter((s) => s.ppid === service.browserHost() && s.comm !== 'node').length;
  return { rss: rssOf(tree), browsers };
}

async function reportedRss(service: Service): Promise<number | null> {
  const res = await fetch(`${service.api.base}/admin/nodes`, { headers: { 'X-API-KEY': service.api.key } });
  const body = await res.json() as { data: { rssBytes?: number | null }[] };
  return body.data[0]?.rssBytes ?? null;
}

async function one(root: string, site: TestSite, slots: number, warm: number, signal: AbortSignal, onExit: (e: Error) => void): Promise<Row> {
  const service = await startEmbedded({ root, siteHost: new URL(site.url('/')).hostname, signal, onUnexpectedExit: onExit }, 'chrome', slots, {
    SHOTFARM_AGENT_BROWSERS: DEFAULT_BROWSERS, SHOTFARM_POOL_WARM_BROWSERS: String(warm),
  });
  try {
    const capture = shotfarmCapture(service.api);
    const url = (n: string): string => site.url(`/target.html?idle=${n}`);
    const afterStart = treeNow(service).rss;
    let next = 0;
    await Promise.all(Array.from({ length: slots }, async (_, worker) => {
      while (next < slots * BURST_PER_SLOT) await capture(url(`burst-${slots}-${warm}-${next++}`), 'screen', worker, signal);
    }));
    const afterBurst = treeNow(service).rss;
    process.stderr.write(`slots ${slots} warm ${warm}: after start ${mb(afterStart)}, after the burst ${mb(afterBurst)}; idling ${IDLE_WAIT_S} s\n`);
    for (let waited = 0; waited < IDLE_WAIT_S; waited += 10) {
      await sleep(Math.min(10, IDLE_WAIT_S - waited) * 1000);
      const now = treeNow(service);
      process.stderr.write(`  ${Math.min(waited + 10, IDLE_WAIT_S)} s idle: ${mb(now.rss)}, ${now.browsers} browser processes\n`);
    }
    const idle = treeNow(service);
    // The heartbeat carries rssBytes: wait one beat (5 s by default) so the registry has a reading from the idle tree.
    await sleep(6_000);
    const reported = await reportedRss(service);
    const firstMs = (await capture(url(`first-${slots}-${warm}`), 'screen', 0, signal)).ms;
    const warmMs: number[] = [];
    for (let i = 0; i < WARM_AFTER; i++) warmMs.push((await capture(url(`warm-${slots}-${warm}-${i}`), 'screen', 0, signal)).ms);
    return { slots, warm, afterStart, afterBurst, afterIdle: idle.rss, reported, firstMs, warmMs: percentile(warmMs, 50), browsersAfterIdle: idle.browsers };
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'shotfarm-idle-'));
  const site = await TestSite.start();
  const abort = new AbortController();
  const rows: Row[] = [];
  try {
    for (const slots of SLOTS) for (const warm of WARM) rows.push(await one(root, site, slots, warm, abort.signal, (e) => abort.abort(e)));
  } finally {
    await site.close();
    await rm(root, { recursive: true, force: true });
  }
  const lines = [
    `idle memory, embedded serve (browsers ${DEFAULT_BROWSERS}, default idle timeout), ${os.cpus().length} cores, ${new Date().toISOString()}`,
    '| slots | warm browsers | tree RSS after start | after the burst | after ' + `${IDLE_WAIT_S} s idle | node's own report | browser processes left | first capture after idle | warm capture (median of ${WARM_AFTER}) |`,
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.slots} | ${r.warm} | ${mb(r.afterStart)} | ${mb(r.afterBurst)} | ${mb(r.afterIdle)} | ${r.reported === null ? '-' : mb(r.reported)} | ${r.browsersAfterIdle} | ${r.firstMs.toFixed(0)} ms | ${r.warmMs.toFixed(0)} ms |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
