import type { AdapterCatalog } from '../core/di/adapters.js';
import { TOKENS } from '../core/di/tokens.js';
import { OutboxMailer } from './auth/mailer.js';
import { OfflinePaymentProvider } from './billing/offline-provider.js';

/**
 * The control plane's adapters (registered by core/di/adapters.ts): the built-in offline (invoice)
 * payment provider, and the mailer that keeps every message in the outbox table and delivers it over
 * SMTP_URL when set. The mailer writes through the database the root registered under TOKENS.Db.
 */
export const apiAdapters: Pick<AdapterCatalog, 'paymentProvider' | 'mailer'> = {
  paymentProvider: { offline: () => new OfflinePaymentProvider() },
  mailer: { outbox: ({ container, log, config }) => new OutboxMailer(container.resolve(TOKENS.Db), log, config.mail) },
};
