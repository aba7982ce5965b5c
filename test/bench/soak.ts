/**
 * Soak benchmark (not a test): many real captures in embedded mode with mixed options, to show that the
 * service does not drift over time. It prints:
 *  - the RSS of the whole process tree (serve and its browsers), sampled every few seconds: the median of
 *    the first sample window after warm-up against the median of the last window (target: within 10 %);
 *  - p50/p95 latency of the first and the last quarter of the captures (target: p95 stable);
 *  - outcomes by kind, including the failures it asks for on purpose (a refused port, a missing page);
 *  - processes of its tree and entries of its TMPDIR after warm-up and at the end, and processes still
 *    alive after the service stopped.
 *
 *   make bench-soak                      (or: node dist/test/bench/soak.js [captures] [concurrency])
 *
 * The default, 2,000 captures at 2 at once, takes about 20 minutes on the 2-core reference machine.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TestSite } from '../support/test-site.js';
import { INFO_WAIT_SECONDS } from './bench-settings.js';
import { percentile } from './measure.js';
import { readAllStats, rssOf, treeOf } from './proc-tree.js';
import { startEmbedded, type Service } from './service-processes.js';

const CAPTURES = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 2);
/** RSS is sampled this often: enough samples for a median per window, cheap next to a capture. */
const RSS_SAMPLE_MS = 5_000;
/** The first captures warm the browsers, the page cache and V8; RSS is compared from after them. */
const WARM_UP_SHARE = 0.1;
/** How many RSS samples make a window (first after warm-up, last). */
const RSS_WINDOW = 12;

/** One kind of capture of the mix: its share, its query beyond the URL, and the outcome it should have. */
interface Kind {
  name: string;
  every: number;
  query: (site: TestSite, n: number) => Record<string, string>;
  expect: 'finished' | 'error';
}

/**
 * The mix: mostly viewport captures, then full page, pdf, html; a few videos; a few failures (a refused
 * port ends `error` and costs nothing; a 404 page is a finished capture of that page). `every` = one
 * capture in `every` is of this kind (checked from the rarest; the rest are viewport captures).
 */
const MIX: Kind[] = [
  { name: 'video', every: 50, query: (s, n) => ({ url: s.url(`/long.html?soak=${n}`), video: 'true', video_duration: '2' }), expect: 'finished' },
  { name: 'refused', every: 40, query: (_s, n) => ({ url: `http://127.0.0.1:9/?soak=${n}` }), expect: 'error' },
  { name: 'not found', every: 45, query: (s, n) => ({ url: s.url(`/no-such-page-${n}`) }), expect: 'finished' },
  { name: 'pdf', every: 10, query: (s, n) => ({ url: s.url(`/long.html?soak=${n}`), pdf: 'true' }), expect: 'finished' },
  { name: 'html', every: 8, query: (s, n) => ({ url: s.url(`/target.html?soak=${n}`), html: 'true' }), expect: 'finished' },
  { name: 'full page', every: 4, query: (s, n) => ({ url: s.url(`/long.html?soak=${n}`), size: 'page' }), expect: 'finished' },
];
const VIEWPORT: Kind = { name: 'viewport', every: 1, query: (s, n) => ({ url: s.url(`/target.html?soak=${n}`) }), expect: 'finished' };
const kindOf = (n: number): Kind => MIX.find((k) => n % k.every === 0) ?? VIEWPORT;

interface Done {
  n: number;
  kind: string;
  ms: number;
  status: string;
  asExpected: boolean;
}

async function capture(service: Service, site: TestSite, n: number): Promise<Done> {
  const kind = kindOf(n);
  const started = performance.now();
  const headers = { 'X-API-KEY': service.api.key };
  const query = new URLSearchParams({ ...kind.query(site, n), browser: service.api.browser, cache: '0' });
  const created = (await (await fetch(`${service.api.base}/screenshot/create?${query}`, { headers })).json()) as { data?: { id: number }[]; message?: string };
  const id = created.data?.[0]?.id;
  if (id === undefined) throw new Error(`capture ${n} (${kind.name}) was not created: ${JSON.stringify(created)}`);
  let status = 'processing';
  while (status === 'processing') {
    status = ((await (await fetch(`${service.api.base}/screenshot/info?id=${id}&wait=${INFO_WAIT_SECONDS}`, { headers })).json()) as { data: { status: string } }).data.status;
  }
  if (status === 'finished' && kind.name !== 'video') await (await fetch(`${service.api.base}/screenshot/thumbnail?id=${id}`, { headers })).arrayBuffer();
  return { n, kind: kind.name, ms: performance.now() - started, status, asExpected: status === kind.expect };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const median = (values: number[]): number => percentile(values, 50);

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'shotfarm-soak-'));
  const site = await TestSite.start();
  const abort = new AbortController();
  let service: Service | undefined;
  const rss: { bytes: number; processes: number; tmpEntries: number; done: number }[] = [];
  const done: Done[] = [];
  let tree: number[] = [];
  try {
    service = await startEmbedded({ root, siteHost: new URL(site.url('/')).hostname, signal: abort.signal, onUnexpectedExit: (e) => abort.abort(e) }, 'chrome', CONCURRENCY);
    const svc = service;
    // The service's TMPDIR (service-processes.ts: <its folder>/tmp): browsers keep their profiles there.
    const tmp = path.join(root, readdirSync(root).find((n) => n.startsWith('embedded-')) as string, 'tmp');
    const sample = (): void => {
      tree = treeOf(readAllStats(), svc.roots(), new Set([process.pid]));
      rss.push({ bytes: rssOf(tree), processes: tree.length, tmpEntries: readdirSync(tmp).length, done: done.length });
    };
    sample();
    const sampler = setInterval(sample, RSS_SAMPLE_MS);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CAPTURES) {
          abort.signal.throwIfAborted();
          const n = next++;
          done.push(await capture(svc, site, n));
          if (done.length % 50 === 0) process.stderr.write(`\r${done.length}/${CAPTURES} in ${((performance.now() - started) / 1000).toFixed(0)} s, tree RSS ${mb(rss.at(-1)?.bytes ?? 0)}`);
        }
      }),
    );
    clearInterval(sampler);
    sample();
    const wallS = (performance.now() - started) / 1000;
    process.stderr.write('\n');

    const warm = rss.filter((s) => s.done >= CAPTURES * WARM_UP_SHARE);
    const firstWindow = warm.slice(0, RSS_WINDOW).map((s) => s.bytes);
    const lastWindow = warm.slice(-RSS_WINDOW).map((s) => s.bytes);
    const drift = median(lastWindow) / median(firstWindow) - 1;
    const quarter = Math.floor(done.length / 4);
    const byN = [...done].sort((a, b) => a.n - b.n);
    const first = byN.slice(0, quarter).map((d) => d.ms);
    const last = byN.slice(-quarter).map((d) => d.ms);
    const kinds = new Map<string, { n: number; unexpected: number }>();
    for (const d of done) {
      const k = kinds.get(d.kind) ?? { n: 0, unexpected: 0 };
      k.n += 1;
      if (!d.asExpected) k.unexpected += 1;
      kinds.set(d.kind, k);
    }

    await service.stop();
    service = undefined;
    const alive = tree.filter((pid) => readAllStats().has(pid));
    const [afterWarmUp, atEnd] = [warm[0], rss.at(-1)];

    const lines = [
      `soak: ${CAPTURES} captures, embedded (shotfarm serve, chrome, ${CONCURRENCY} slots), ${CONCURRENCY} at once, ${wallS.toFixed(0)} s (${(CAPTURES / wallS).toFixed(2)} captures/s)`,
      `  outcomes:        ${[...kinds].map(([name, k]) => `${name} ${k.n}${k.unexpected ? ` (${k.unexpected} unexpected)` : ''}`).join(', ')}`,
      `  tree RSS:        ${mb(median(firstWindow))} after warm-up (median of ${firstWindow.length} samples), ${mb(median(lastWindow))} at the end: ${(drift * 100).toFixed(1)} % (target within 10 %)`,
      `  tree RSS range:  ${mb(Math.min(...warm.map((s) => s.bytes)))} … ${mb(Math.max(...warm.map((s) => s.bytes)))} after warm-up`,
      `  latency:         first quarter p50 ${median(first).toFixed(0)} ms p95 ${percentile(first, 95).toFixed(0)} ms; last quarter p50 ${median(last).toFixed(0)} ms p95 ${percentile(last, 95).toFixed(0)} ms`,
      `  processes:       ${afterWarmUp?.processes} in the tree after warm-up, ${atEnd?.processes} at the end; ${alive.length} alive after the service stopped`,
      `  temp folder:     ${afterWarmUp?.tmpEntries} entr(ies) after warm-up, ${atEnd?.tmpEntries} at the end (browser profiles; growth = a leak)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await service?.stop();
    await site.close();
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
