import { expect } from 'chai';
import { apiAdapters } from '../../api/api-adapters.js';
import { OutboxMailer } from '../../api/auth/mailer.js';
import { OfflinePaymentProvider } from '../../api/billing/offline-provider.js';
import { loadConfig } from '../../core/config/load-config.js';
import { CHOICE, registerAdapters, TOKEN_OF, type AdapterCatalog, type Contract, type MakeAdapter } from '../../core/di/adapters.js';
import { newContainer, TOKENS } from '../../core/di/tokens.js';
import { createLogger } from '../../core/logger.js';
import { driverAdapters } from '../../drivers/driver-adapters.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { SeleniumDriver } from '../../drivers/selenium/selenium-driver.js';
import { gridAdapters } from '../../grid/grid-adapters.js';
import { MemoryJobQueue } from '../../grid/queue/memory-job-queue.js';
import { MemoryNodeRegistry } from '../../grid/registry/memory-node-registry.js';

const log = createLogger('silent');

/** A test-only double of an adapter: it says which implementation was built, nothing else. */
interface LabelledTestDouble {
  implementation: string;
  closed: boolean;
}

/** A catalog of test doubles (no I/O): each implementation builds a labelled object and counts its close. */
function labelledTestCatalog(): { catalog: AdapterCatalog; built: LabelledTestDouble[] } {
  const built: LabelledTestDouble[] = [];
  const make =
    (implementation: string): MakeAdapter<never> =>
    (ctx) => {
      const double = { implementation, closed: false };
      built.push(double);
      ctx.onClose(async () => {
        double.closed = true;
      });
      return double as never;
    };
  const catalog: AdapterCatalog = {
    jobQueue: { memory: make('memory queue'), nats: make('nats queue') },
    nodeRegistry: { memory: make('memory registry'), nats: make('nats registry') },
    objectStore: { filesystem: make('filesystem store'), s3: make('s3 store') },
    browserDriver: { playwright: make('playwright driver'), selenium: make('selenium driver'), null: make('null driver') },
    paymentProvider: { offline: make('offline provider') },
    mailer: { outbox: make('outbox mailer') },
  };
  return { catalog, built };
}

/** What the registration resolves for every contract under these settings. */
async function implementationsFor(env: Record<string, string>): Promise<Record<Contract, string>> {
  const container = newContainer();
  const { catalog } = labelledTestCatalog();
  await registerAdapters(container, loadConfig(env), catalog, log);
  const out = {} as Record<Contract, string>;
  for (const contract of Object.keys(TOKEN_OF) as Contract[]) out[contract] = (container.resolve(TOKEN_OF[contract]) as LabelledTestDouble).implementation;
  return out;
}

const DISTRIBUTED = {
  NATS_URL: 'nats://127.0.0.1:4222',
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'a',
  S3_SECRET_KEY: 'b',
  SHOTFARM_DRIVER: 'selenium',
  SELENIUM_GRID_URL: 'http://127.0.0.1:4444',
};

describe('adapters are chosen in one place: the tsyringe container (core/di/adapters.ts)', () => {
  it('embedded settings pick the in-process queue and registry, the folder store and Playwright', async () => {
    expect(await implementationsFor({})).to.deep.equal({
      jobQueue: 'memory queue',
      nodeRegistry: 'memory registry',
      objectStore: 'filesystem store',
      browserDriver: 'playwright driver',
      paymentProvider: 'offline provider',
      mailer: 'outbox mailer',
    });
  });

  it('NATS_URL picks JetStream and NATS KV, S3_ENDPOINT the S3 store, SHOTFARM_DRIVER=selenium the Selenium driver', async () => {
    expect(await implementationsFor(DISTRIBUTED)).to.deep.equal({
      jobQueue: 'nats queue',
      nodeRegistry: 'nats registry',
      objectStore: 's3 store',
      browserDriver: 'selenium driver',
      paymentProvider: 'offline provider',
      mailer: 'outbox mailer',
    });
    // Each setting decides its own contract only.
    expect(await implementationsFor({ NATS_URL: DISTRIBUTED.NATS_URL })).to.include({
      jobQueue: 'nats queue',
      nodeRegistry: 'nats registry',
      objectStore: 'filesystem store',
      browserDriver: 'playwright driver',
    });
  });

  it('has one token per contract, each chosen from the configuration, and no other token but the database', () => {
    const contractTokens = Object.values(TOKEN_OF);
    expect(new Set(contractTokens).size).to.equal(contractTokens.length);
    expect(Object.keys(CHOICE).sort()).to.deep.equal(Object.keys(TOKEN_OF).sort());
    expect(Object.values(TOKENS).filter((t) => !contractTokens.includes(t))).to.deep.equal([TOKENS.Db]);
  });

  it('registers only the contracts a root passes, and refuses a choice the root cannot build', async () => {
    const container = newContainer();
    const { catalog } = labelledTestCatalog();
    const agentOnly = await registerAdapters(container, loadConfig({}), { browserDriver: catalog.browserDriver }, log);
    expect(agentOnly.chosen).to.deep.equal({ browserDriver: 'playwright' });
    expect(container.isRegistered(TOKENS.Mailer)).to.equal(false);
    const missing = await registerAdapters(newContainer(), loadConfig({}), { browserDriver: { ...catalog.browserDriver, playwright: undefined as never } }, log).then(
      () => null,
      (e: unknown) => e,
    );
    expect(String(missing)).to.include('no playwright implementation of browserDriver');
  });

  it("tells which registered adapter nothing resolved, and a root's check fails until each is resolved", async () => {
    const container = newContainer();
    const { catalog } = labelledTestCatalog();
    const adapters = await registerAdapters(container, loadConfig({}), { jobQueue: catalog.jobQueue, objectStore: catalog.objectStore }, log);
    expect(adapters.unresolved()).to.deep.equal(['jobQueue', 'objectStore']);
    expect(() => adapters.assertResolved()).to.throw('never resolved: jobQueue, objectStore');
    container.resolve(TOKENS.JobQueue);
    expect(adapters.unresolved()).to.deep.equal(['objectStore']);
    container.resolve(TOKENS.ObjectStore);
    expect(() => adapters.assertResolved()).not.to.throw();
  });

  it('closes what it built in reverse order, and everything built so far when a later adapter fails', async () => {
    const { catalog, built } = labelledTestCatalog();
    const adapters = await registerAdapters(newContainer(), loadConfig({}), { jobQueue: catalog.jobQueue, nodeRegistry: catalog.nodeRegistry }, log);
    await adapters.close();
    expect(built.map((b) => b.closed)).to.deep.equal([true, true]);
    const failing = labelledTestCatalog();
    const error = await registerAdapters(
      newContainer(),
      loadConfig({}),
      {
        jobQueue: failing.catalog.jobQueue,
        nodeRegistry: { memory: () => Promise.reject(new Error('registry down')), nats: failing.catalog.nodeRegistry.nats },
      },
      log,
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(String(error)).to.include('registry down');
    expect(failing.built.map((b) => [b.implementation, b.closed])).to.deep.equal([['memory queue', true]]);
  });

  it('the real catalogs build the implementations the configuration names (the ones without a server)', async () => {
    const embedded = newContainer();
    embedded.register(TOKENS.Db, { useValue: {} as never });
    const adapters = await registerAdapters(embedded, loadConfig({}), { ...gridAdapters('unit-test'), ...driverAdapters, ...apiAdapters }, log);
    try {
      expect(embedded.resolve(TOKENS.JobQueue)).to.be.instanceOf(MemoryJobQueue);
      expect(embedded.resolve(TOKENS.NodeRegistry)).to.be.instanceOf(MemoryNodeRegistry);
      expect(embedded.resolve(TOKENS.BrowserDriver)).to.be.instanceOf(PlaywrightDriver);
      expect(embedded.resolve(TOKENS.PaymentProvider)).to.be.instanceOf(OfflinePaymentProvider);
      expect(embedded.resolve(TOKENS.Mailer)).to.be.instanceOf(OutboxMailer);
    } finally {
      await adapters.close();
    }
    const grid = newContainer();
    await registerAdapters(grid, loadConfig({ SHOTFARM_DRIVER: 'selenium', SELENIUM_GRID_URL: 'http://127.0.0.1:4444' }), driverAdapters, log);
    expect(grid.resolve(TOKENS.BrowserDriver)).to.be.instanceOf(SeleniumDriver);
  });
});
