/**
 * The two shotfarm deployments the speed benchmark measures, each started as child processes exactly as
 * a user starts them (`node dist/bin/shotfarm.js …` with settings in the environment), with its slots equal
 * to the concurrency under test, and stopped again without leaving a process, folder or database behind.
 *
 * - embedded: `shotfarm serve` (API, in-process queue and one agent in one process; PGlite and files in
 *   a fresh data folder).
 * - distributed: a private `nats-server -js`, s3rver in its own process, a throwaway database on the
 *   machine's Postgres, `shotfarm api` and one `shotfarm agent`.
 *
 * The SSRF guard stays on, as in production: only the test site's address is allowlisted
 * (SHOTFARM_PRIVATE_TARGET_ALLOWLIST), never SHOTFARM_ALLOW_PRIVATE_TARGETS=true.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createThrowawayPostgres } from '../support/databases.js';
import { S3RVER_CREDENTIALS } from '../support/s3rver.js';
import { CREDITS, NATS_BIN } from './bench-settings.js';
import { Cleanups } from './cleanups.js';
import { ManagedChild } from './managed-child.js';
import type { ShotfarmApi } from './shotfarm-client.js';

/** The CLI users run, from the compiled bench's place in dist/ (dist/test/bench → dist/api). */
const CLI = fileURLToPath(new URL('../../bin/shotfarm.js', import.meta.url));
const S3RVER_PROCESS = fileURLToPath(new URL('./s3rver-process.js', import.meta.url));
/**
 * A service start runs migrations and launches a browser; 2 minutes covers that on a loaded 2-core
 * machine (it takes a few seconds when idle).
 */
const START_TIMEOUT_MS = 120_000;
/** Readiness polling period: short next to a start (seconds), long next to a request (ms). */
const POLL_MS = 200;
/** The bucket of the distributed mode's s3rver (a fresh server per start, so any name does). */
const S3_BUCKET = 'shotfarm-bench';

export type ServiceMode = 'embedded' | 'distributed';

export interface Service {
  mode: ServiceMode;
  api: ShotfarmApi;
  /** the processes whose trees this mode is charged for (CPU and RSS) */
  roots(): number[];
  /** the process that launches the browsers (serve, or the agent): each direct child of it is one browser */
  browserHost(): number;
  /** whether every `postgres` process's CPU is charged too (the machine's server, not a child) */
  chargesPostgres: boolean;
  /** from spawning the first process to ready (API ready and the agent registered), ms */
  startMs: number;
  /** its shotfarm processes (serve; or api and agent), for counting their output lines */
  shotfarm: ManagedChild[];
  stop(): Promise<void>;
}

export interface ServiceContext {
  /** the bench's temp folder: every service's folders go inside it */
  root: string;
  /** the test site's host, the one private address captures may reach */
  siteHost: string;
  /** told when a child exits without being asked to (the bench stops with that reason) */
  onUnexpectedExit: (error: Error) => void;
  /** the bench stopping (a failure elsewhere, Ctrl-C): a start in progress gives up */
  signal: AbortSignal;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port free right now: bind port 0, read it, close (another process could take it meanwhile; rare here). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The environment every child starts from: no inherited DATABASE_URL, NATS_URL or S3_* can change the
 * mode under test. TMPDIR points into the bench's folder, so whatever a killed browser leaves in its temp
 * folder (profiles, shared memory files) goes when the bench removes that folder.
 */
function baseEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, TMPDIR: tmp };
  for (const name of ['HOME', 'LANG']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/**
 * Node's own flags for a shotfarm child. SHOTFARM_BENCH_CPU_PROF=<folder> (opt-in, for profiling the
 * service under the bench's load): each shotfarm process writes a V8 CPU profile named after it into that
 * folder when it exits (SIGTERM ends it through its normal shutdown, which writes the profile).
 */
function nodeArgs(name: string): string[] {
  const dir = process.env.SHOTFARM_BENCH_CPU_PROF;
  if (!dir) return [];
  return ['--cpu-prof', '--cpu-prof-dir', path.resolve(dir), '--cpu-prof-name', `${name.replace(/[^\w.-]+/g, '_')}-${Date.now()}.cpuprofile`];
}

/** Warnings and errors of a shotfarm process: pino's JSON lines (LOG_LEVEL=warn) and plain error text; not knex's statement log (capture-cost.ts turns it on). */
const shotfarmLogLine = (line: string): boolean => !/ knex:query /.test(line) && (line.startsWith('{') || (/error|fail|fatal/i.test(line) && !/SIGTERM received/.test(line)));

/** A folder of its own inside the bench's folder. */
async function folder(ctx: ServiceContext, prefix: string): Promise<string> {
  return mkdtemp(path.join(ctx.root, prefix));
}

/** Waits until the API answers /readyz with 200 and lists a node offering `browser`. */
async function waitReady(api: ShotfarmApi, children: ManagedChild[], signal: AbortSignal): Promise<void> {
  const origin = api.base.replace(/\/api\/v1$/, '');
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = 'no answer yet';
  for (;;) {
    signal.throwIfAborted();
    for (const child of children) if (!child.alive) throw new Error(`${child.name} exited while starting; its output:\n${child.tail()}`);
    try {
      const ready = await fetch(`${origin}/readyz`);
      last = `/readyz ${ready.status} ${await ready.text()}`;
      if (ready.status === 200) {
        const nodes = await fetch(`${api.base}/admin/nodes`, { headers: { 'X-API-KEY': api.key } });
        const body = (await nodes.json()) as { data?: { id: string; browsers: { name: string }[] }[] };
        last = `/admin/nodes ${nodes.status} ${JSON.stringify(body)}`;
        if (body.data?.some((node) => node.browsers.some((b) => b.name === api.browser))) return;
      }
    } catch (error) {
      last = String(error); // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`not ready within ${START_TIMEOUT_MS / 1000} s: ${last}`);
    await sleep(POLL_MS);
  }
}

/** The bench's API key: the bootstrap key format (16–128 of A-Z a-z 0-9 _ -). */
const benchKey = (): string => `sf_bench_${randomBytes(16).toString('hex')}`;

/** Runs `start`; if it fails, undoes what it registered before rethrowing. */
async function startOrUndo(cleanups: Cleanups, start: () => Promise<void>): Promise<void> {
  try {
    await start();
  } catch (error) {
    await cleanups.runAll().catch((cleanupError: unknown) => process.stderr.write(`${String(cleanupError)}\n`));
    throw error;
  }
}

/** `shotfarm serve` with `slots` slots of one browser; `env` adds or overrides settings (the idle bench's pool settings). */
export async function startEmbedded(ctx: ServiceContext, browser: string, slots: number, env: NodeJS.ProcessEnv = {}): Promise<Service> {
  const started = performance.now();
  const cleanups = new Cleanups();
  const dir = await folder(ctx, `embedded-${browser}-c${slots}-`);
  cleanups.add(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));
  const tmp = path.join(dir, 'tmp');
  await mkdir(tmp);
  const port = await freePort();
  const api: ShotfarmApi = { base: `http://127.0.0.1:${port}/api/v1`, key: benchKey(), browser };
  // Spawning does not throw (a missing binary is an 'error' event, seen by waitReady as an exit).
  const name = `serve(${browser},c${slots})`;
  const serve = new ManagedChild({
    name,
    command: process.execPath,
    args: [...nodeArgs(name), CLI, 'serve'],
    forward: shotfarmLogLine,
    onUnexpectedExit: ctx.onUnexpectedExit,
    env: {
      ...baseEnv(tmp),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SHOTFARM_DATA_DIR: path.join(dir, 'data'),
      SHOTFARM_BOOTSTRAP_KEY: api.key,
      SHOTFARM_BOOTSTRAP_CREDITS: String(CREDITS),
      SHOTFARM_RATE_LIMIT_PER_MINUTE: '0',
      SHOTFARM_AGENT_BROWSERS: browser,
      SHOTFARM_AGENT_SLOTS: String(slots),
      SHOTFARM_PRIVATE_TARGET_ALLOWLIST: ctx.siteHost,
      ...env,
    },
  });
  cleanups.add(serve.name, () => serve.stop());
  await startOrUndo(cleanups, () => waitReady(api, [serve], ctx.signal));
  return {
    mode: 'embedded',
    api,
    chargesPostgres: false,
    startMs: performance.now() - started,
    roots: () => [serve.pid],
    browserHost: () => serve.pid,
    shotfarm: [serve],
    stop: () => cleanups.runAll(),
  };
}

/** `shotfarm api` + `shotfarm agent --slots <slots>` over a private NATS, s3rver and a throwaway Postgres database; `env` adds settings to both. */
export async function startDistributed(ctx: ServiceContext, browser: string, slots: number, env: NodeJS.ProcessEnv = {}): Promise<Service> {
  const started = performance.now();
  const cleanups = new Cleanups();
  const dir = await folder(ctx, `distributed-c${slots}-`);
  cleanups.add(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));
  for (const sub of ['tmp', 'nats', 'api', 'agent']) await mkdir(path.join(dir, sub));
  const tmp = path.join(dir, 'tmp');
  const [natsPort, apiPort] = [await freePort(), await freePort()];
  const api: ShotfarmApi = { base: `http://127.0.0.1:${apiPort}/api/v1`, key: benchKey(), browser };
  const children: ManagedChild[] = [];
  let agent: ManagedChild | null = null;
  const shotfarm: ManagedChild[] = [];
  const spawnChild = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv, forward: (line: string) => boolean): ManagedChild => {
    const child = new ManagedChild({ name, command, args, env, forward, onUnexpectedExit: ctx.onUnexpectedExit });
    children.push(child);
    cleanups.add(name, () => child.stop());
    return child;
  };
  await startOrUndo(cleanups, async () => {
    // NATS, S3 and the database do not depend on each other: started together.
    const nats = spawnChild(`nats(c${slots})`, NATS_BIN, ['-js', '-sd', path.join(dir, 'nats'), '-a', '127.0.0.1', '-p', String(natsPort)], baseEnv(tmp), (line) => /\[(ERR|WRN|FTL)\]/.test(line));
    const s3 = spawnChild(`s3rver(c${slots})`, process.execPath, [S3RVER_PROCESS], baseEnv(tmp), (line) => !line.startsWith('{"endpoint"'));
    const database = await createThrowawayPostgres();
    cleanups.add('drop the throwaway database', () => database.drop());
    // Accepting TCP is not enough for JetStream (it recovers its store first): wait for the ready line.
    await nats.waitForOutput(/Server is ready/, START_TIMEOUT_MS);
    const endpoint = (JSON.parse((await s3.waitForOutput(/^\{"endpoint":.*\}$/m, START_TIMEOUT_MS))[0]) as { endpoint: string }).endpoint;
    const shared: NodeJS.ProcessEnv = {
      ...baseEnv(tmp),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      // A prefix of its own: nothing of another installation on that NATS (there is none: private server) is touched.
      SHOTFARM_NATS_PREFIX: `sfbench_${randomBytes(4).toString('hex')}`,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY: S3RVER_CREDENTIALS.accessKey,
      S3_SECRET_KEY: S3RVER_CREDENTIALS.secretKey,
      S3_BUCKET,
      SHOTFARM_PRIVATE_TARGET_ALLOWLIST: ctx.siteHost,
    };
    // The agent needs neither the API nor the database: both start at once.
    const apiChild = spawnChild(
      `api(c${slots})`,
      process.execPath,
      [...nodeArgs(`api(c${slots})`), CLI, 'api'],
      {
        ...shared,
        PORT: String(apiPort),
        SHOTFARM_DATA_DIR: path.join(dir, 'api'),
        DATABASE_URL: database.url,
        SHOTFARM_BOOTSTRAP_KEY: api.key,
        SHOTFARM_BOOTSTRAP_CREDITS: String(CREDITS),
        SHOTFARM_RATE_LIMIT_PER_MINUTE: '0',
        ...env,
      },
      shotfarmLogLine,
    );
    // PORT 0: the agent's /healthz and /metrics listen on a port the OS picks.
    agent = spawnChild(
      `agent(c${slots})`,
      process.execPath,
      [...nodeArgs(`agent(c${slots})`), CLI, 'agent', '--browsers', browser, '--slots', String(slots)],
      {
        ...shared,
        PORT: '0',
        SHOTFARM_DATA_DIR: path.join(dir, 'agent'),
        SHOTFARM_NODE_ID: `bench-agent-c${slots}`,
        ...env,
      },
      shotfarmLogLine,
    );
    shotfarm.push(apiChild, agent);
    await waitReady(api, children, ctx.signal);
  });
  return {
    mode: 'distributed',
    api,
    chargesPostgres: true,
    startMs: performance.now() - started,
    roots: () => children.map((child) => child.pid),
    browserHost: () => agent?.pid ?? -1,
    shotfarm,
    // Registered in start order, undone in reverse: the agent drains (it needs NATS) before the API, then S3, NATS, the database, the folder.
    stop: () => cleanups.runAll(),
  };
}
