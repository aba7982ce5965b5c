import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { Config } from '../config/config.js';
import type { BrowserDriver } from '../contracts/browser-driver.js';
import type { JobQueue } from '../contracts/job-queue.js';
import type { Mailer } from '../contracts/mailer.js';
import type { NodeRegistry } from '../contracts/node-registry.js';
import type { ObjectStore } from '../contracts/object-store.js';
import type { PaymentProvider } from '../contracts/payment-provider.js';
import type { Logger } from '../logger.js';
import { TOKENS } from './tokens.js';

/** What building an adapter may use: the configuration, the container (for what it depends on) and a way to be closed. */
export interface AdapterContext {
  config: Config;
  container: DependencyContainer;
  log: Logger;
  /** runs `close` when the adapters are closed, in reverse order of registration */
  onClose(close: () => Promise<void>): void;
}

export type MakeAdapter<T> = (ctx: AdapterContext) => T | Promise<T>;

/**
 * Every implementation of every contract, by the name the configuration picks it with. Each layer
 * supplies the part it owns (grid: queue and registry; core/storage: object store; drivers: browser
 * driver; api: payment provider and mailer), so no layer imports another to be wired; a composition
 * root passes the parts it runs.
 */
export interface AdapterCatalog {
  jobQueue: { memory: MakeAdapter<JobQueue>; nats: MakeAdapter<JobQueue> };
  nodeRegistry: { memory: MakeAdapter<NodeRegistry>; nats: MakeAdapter<NodeRegistry> };
  objectStore: { filesystem: MakeAdapter<ObjectStore>; s3: MakeAdapter<ObjectStore> };
  browserDriver: { playwright: MakeAdapter<BrowserDriver>; selenium: MakeAdapter<BrowserDriver>; null: MakeAdapter<BrowserDriver> };
  paymentProvider: { offline: MakeAdapter<PaymentProvider> };
  mailer: { outbox: MakeAdapter<Mailer> };
}

export type Contract = keyof AdapterCatalog;

/**
 * Which implementation of each contract a configuration asks for: the one place adapters are chosen.
 * NATS_URL selects JetStream and NATS KV (else in-process), S3_ENDPOINT selects S3 (else a folder in the
 * data dir), SHOTFARM_DRIVER the browser driver. The offline provider and the outbox mailer (SMTP_URL
 * delivers, else the log) are the only implementations so far.
 */
export const CHOICE: { readonly [C in Contract]: (config: Config) => keyof AdapterCatalog[C] } = {
  jobQueue: (config) => (config.natsUrl ? 'nats' : 'memory'),
  nodeRegistry: (config) => (config.natsUrl ? 'nats' : 'memory'),
  objectStore: (config) => (config.s3 ? 's3' : 'filesystem'),
  browserDriver: (config) => config.agent.driver,
  paymentProvider: () => 'offline',
  mailer: () => 'outbox',
};

export const TOKEN_OF: { readonly [C in Contract]: InjectionToken<unknown> } = {
  jobQueue: TOKENS.JobQueue,
  nodeRegistry: TOKENS.NodeRegistry,
  objectStore: TOKENS.ObjectStore,
  browserDriver: TOKENS.BrowserDriver,
  paymentProvider: TOKENS.PaymentProvider,
  mailer: TOKENS.Mailer,
};

/** The adapters registered in one container: which were chosen, which no one resolved yet, and how to close them. */
export interface RegisteredAdapters {
  /** contract → the implementation's name */
  chosen: Partial<Record<Contract, string>>;
  /** the registered contracts nothing has resolved from the container so far */
  unresolved(): Contract[];
  /**
   * Throws when a registered contract was never resolved: a root calls it once it has started, so an
   * adapter built for nothing (a connection opened, a bucket made for no one) fails the start, and tests.
   */
  assertResolved(): void;
  /** closes what the adapters opened, in reverse order */
  close(): Promise<void>;
}

/**
 * Builds the implementation the configuration picks for every contract of `catalog` (in the catalog's
 * order, so a later one may resolve an earlier one) and registers it under its token. Building is eager:
 * a NATS server that cannot be reached, or a bucket that cannot be made, stops the start here.
 */
export async function registerAdapters(container: DependencyContainer, config: Config, catalog: Partial<AdapterCatalog>, log: Logger): Promise<RegisteredAdapters> {
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const c of closers.splice(0).reverse()) await c();
  };
  const ctx: AdapterContext = { config, container, log, onClose: (c) => closers.push(c) };
  const chosen: Partial<Record<Contract, string>> = {};
  const resolved = new Set<Contract>();
  try {
    for (const contract of Object.keys(catalog) as Contract[]) {
      const implementations = catalog[contract] as Record<string, MakeAdapter<unknown>>;
      const name = CHOICE[contract](config) as string;
      const make = implementations[name];
      if (!make) throw new Error(`no ${name} implementation of ${contract} was given to this process`);
      const token = TOKEN_OF[contract];
      container.register(token, { useValue: await make(ctx) });
      container.afterResolution(token, () => void resolved.add(contract), { frequency: 'Once' });
      chosen[contract] = name;
    }
  } catch (err) {
    // What was opened before the failure is closed: a half-started process leaves no connection behind.
    await close();
    throw err;
  }
  const unresolved = (): Contract[] => (Object.keys(chosen) as Contract[]).filter((c) => !resolved.has(c));
  return {
    chosen,
    unresolved,
    assertResolved() {
      const unused = unresolved();
      if (unused.length > 0) throw new Error(`adapters registered but never resolved: ${unused.join(', ')} (register only what the process uses)`);
    },
    close,
  };
}
