import 'reflect-metadata';
import type { Knex } from 'knex';
import { container, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { BrowserDriver } from '../contracts/browser-driver.js';
import type { JobQueue } from '../contracts/job-queue.js';
import type { Mailer } from '../contracts/mailer.js';
import type { NodeRegistry } from '../contracts/node-registry.js';
import type { ObjectStore } from '../contracts/object-store.js';
import type { PaymentProvider } from '../contracts/payment-provider.js';

/**
 * Injection tokens: one per contract whose implementation the configuration chooses (registered in
 * core/di/adapters.ts, the one place that chooses), and the database a control plane is given. Every
 * token is resolved by some composition root; a token nothing resolves does not belong here.
 */
export const TOKENS = {
  JobQueue: Symbol('JobQueue') as InjectionToken<JobQueue>,
  NodeRegistry: Symbol('NodeRegistry') as InjectionToken<NodeRegistry>,
  ObjectStore: Symbol('ObjectStore') as InjectionToken<ObjectStore>,
  BrowserDriver: Symbol('BrowserDriver') as InjectionToken<BrowserDriver>,
  PaymentProvider: Symbol('PaymentProvider') as InjectionToken<PaymentProvider>,
  Mailer: Symbol('Mailer') as InjectionToken<Mailer>,
  /**
   * registered by the root that opened it (and closes it): the control plane migrates and uses it. Typed as
   * knex's Knex, the control plane's `Db` (api/db/connect.ts): core names the type, no module of api/.
   */
  Db: Symbol('Db') as InjectionToken<Knex>,
} as const;

/** A fresh container per process (or per test), so nothing leaks between two services in one process. */
export function newContainer(): DependencyContainer {
  return container.createChildContainer();
}
