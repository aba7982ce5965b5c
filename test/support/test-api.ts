import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateApiKey, insertApiKey } from '../../api/accounts/api-keys.js';
import { createCompany } from '../../api/accounts/companies.js';
import { JwtService } from '../../api/accounts/jwt.js';
import { startControlPlane, type ControlPlane } from '../../api/control-plane.js';
import { loadConfig } from '../../core/config/load-config.js';
import type { Config } from '../../core/config/config.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { BROWSERS } from '../../core/capture-spec.js';
import type { DependencyContainer } from 'tsyringe';
import { apiAdapters } from '../../api/api-adapters.js';
import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { NodeRegistry } from '../../core/contracts/node-registry.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import { registerAdapters, type RegisteredAdapters } from '../../core/di/adapters.js';
import { newContainer, TOKENS } from '../../core/di/tokens.js';
import { objectLinkSecret, objectStoreAdapters } from '../../core/storage/object-store-adapters.js';
import { driverAdapters } from '../../drivers/driver-adapters.js';
import { gridAdapters } from '../../grid/grid-adapters.js';
import { createAgent, type AgentOptions } from '../../node-agent/create-agent.js';
import type { NodeAgent } from '../../node-agent/node-agent.js';
import { openReplicaConnection, openTestDatabase, type TestDatabase } from './databases.js';

export interface TestAccount {
  companyId: number;
  key: string;
}

/** The farm's adapters the suite's process runs, as the container resolves them. */
export interface TestFarmParts {
  queue: JobQueue;
  registry: NodeRegistry;
  objects: ObjectStore;
}

export interface TestApi {
  url: string;
  parts: TestFarmParts;
  /** the container the control plane (and the agent) resolved their adapters from */
  container: DependencyContainer;
  adapters: RegisteredAdapters;
  /** the embedded agent, when the suite asked for one */
  agent: NodeAgent | null;
  config: Config;
  database: TestDatabase;
  plane: ControlPlane;
  /** a new account with its own API key and balance */
  account(credits?: number): Promise<TestAccount>;
  /** a user of an account, and a valid JWT for it */
  userToken(companyId: number): Promise<string>;
  jwt: JwtService;
  stop(): Promise<void>;
}

/**
 * Starts a control plane on a free loopback port over a test database, with settings from `env`
 * (on top of quiet defaults). Each suite gets its own data dir and database.
 */
export async function startTestApi(
  kind: 'pglite' | 'postgres',
  env: Record<string, string> = {},
  opts: { agent?: boolean; agentOptions?: AgentOptions; logger?: Logger; replicaOf?: TestDatabase } = {},
): Promise<TestApi> {
  // A replica of another suite's API: the same Postgres database through a pool of its own, left to its owner at stop().
  const database = opts.replicaOf ? await openReplicaConnection(opts.replicaOf) : await openTestDatabase(kind);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-test-'));
  // What has started so far, undone in reverse when a later step throws (an agent whose browser will not
  // launch, say): the suite's leak check would otherwise find the data folder, and the database stay behind.
  const undo: Array<() => Promise<void> | void> = [() => fs.rmSync(dataDir, { recursive: true, force: true }), () => database.drop()];
  try {
    return await startOn(database, dataDir, undo, env, opts);
  } catch (err) {
    for (const step of undo.reverse()) await Promise.resolve(step()).catch(() => undefined);
    throw err;
  }
}

async function startOn(
  database: TestDatabase,
  dataDir: string,
  undo: Array<() => Promise<void> | void>,
  env: Record<string, string>,
  opts: { agent?: boolean; agentOptions?: AgentOptions; logger?: Logger },
): Promise<TestApi> {
  const jwtSecret = 'test-secret-test-secret-test-secret-0123456789';
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SHOTFARM_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: jwtSecret,
    SHOTFARM_RATE_LIMIT_PER_MINUTE: '0',
    // Suites sign up many users from 127.0.0.1; the signup limit's own tests set it.
    SHOTFARM_SIGNUPS_PER_ADDRESS_PER_DAY: '0',
    // Every suite's test site listens on 127.0.0.1; the SSRF suite turns the egress guard back on.
    SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true',
    // Three missed beats of 60 s: the contract suites' declared node outlives them.
    SHOTFARM_HEARTBEAT_SECONDS: '60',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  // A suite that reads the log (the impersonation audit) passes its own logger.
  const log = opts.logger ?? createLogger('silent');
  // The container as `serve` (with an agent) or `api` (without) builds it, over the suite's own database.
  const container = newContainer();
  container.register(TOKENS.Db, { useValue: database.db });
  const adapters = await registerAdapters(
    container,
    config,
    {
      ...gridAdapters('shotfarm-test'),
      ...objectStoreAdapters(objectLinkSecret(jwtSecret)),
      ...(opts.agent ? driverAdapters : {}),
      ...apiAdapters,
    },
    log,
  );
  undo.push(() => adapters.close());
  const parts: TestFarmParts = { queue: container.resolve(TOKENS.JobQueue), registry: container.resolve(TOKENS.NodeRegistry), objects: container.resolve(TOKENS.ObjectStore) };
  let agent: NodeAgent | null = null;
  if (opts.agent) {
    const started = createAgent(config, container, log, {}, opts.agentOptions);
    undo.push(() => started.stop());
    await started.start();
    agent = started;
  } else {
    // API-contract suites need no browser: a declared node lets admission pass, and records stay
    // `processing` because nothing takes their jobs. The heartbeat outlives any suite.
    await parts.registry.heartbeat({
      id: 'contract-tests (no agent)',
      host: 'localhost',
      browsers: BROWSERS.map((name) => ({ name, version: 'none', driver: 'playwright' })),
      countries: [],
      slots: 0,
      inFlight: 0,
      jobsDone: 0,
      failures: 0,
      startedAt: new Date().toISOString(),
      draining: false,
    });
  }
  const plane = await startControlPlane(config, { generateBootstrapKey: false, container, logger: log });
  undo.push(() => plane.stop());
  // As every root does: an adapter registered for nothing fails the start.
  adapters.assertResolved();
  const jwt = new JwtService(jwtSecret);
  return {
    url: `${plane.url}/api/v1`,
    parts,
    container,
    adapters,
    agent,
    config,
    database,
    plane,
    jwt,
    async account(credits = 1000) {
      const company = await createCompany(database.db, { name: `test ${Math.random()}` }, credits, 'test credits');
      const key = generateApiKey();
      await insertApiKey(database.db, company.id, key, 'test');
      return { companyId: company.id, key };
    },
    async userToken(companyId) {
      const [user] = await database
        .db('users')
        .insert({ company_id: companyId, email: `u${Date.now()}${Math.random()}@example.test`, name: 'Test' })
        .returning('id');
      return jwt.sign({ userId: Number(user.id), companyId, impersonatedBy: null });
    },
    async stop() {
      await agent?.stop();
      await plane.stop();
      await adapters.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** GET/POST a path of the API and decode the JSON answer. */
export async function call(base: string, pathAndQuery: string, init: RequestInit & { key?: string } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('X-API-KEY', init.key);
  const res = await fetch(`${base}${pathAndQuery}`, { ...init, headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: leave the text for the assertion to show
  }
  return { status: res.status, body, headers: res.headers };
}

/** Creates one screenshot and waits for its record to leave `processing`: the record and how long it took. */
export async function createAndWait(base: string, key: string, query: string, limitMs = 150_000): Promise<{ record: Record<string, any>; ms: number }> {
  const started = Date.now();
  const created = await call(base, `/screenshot/create?${query}`, { key });
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  const id = created.body.data[0].id;
  for (;;) {
    const info = await call(base, `/screenshot/info?id=${id}&wait=30`, { key });
    if (info.body.data.status !== 'processing') return { record: info.body.data, ms: Date.now() - started };
    if (Date.now() - started > limitMs) throw new Error(`the record is still processing after ${limitMs} ms`);
  }
}
