import type { Plan } from '../../core/billing/plan.js';
import type { PaymentProvider } from '../../core/contracts/payment-provider.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import { OfflinePaymentsGate, type OfflinePaymentsMode } from './offline-payments.js';
import { PaymentMethods } from './payment-methods.js';
import { PlanCatalog } from './plan-catalog.js';
import { SubscriptionRenewal } from './renewal.js';
import { Subscriptions } from './subscriptions.js';

/** The billing services of one control plane, all over the same provider. */
export interface Billing {
  provider: PaymentProvider;
  plans: PlanCatalog;
  /** who may pay through the offline provider (SHOTFARM_OFFLINE_PAYMENTS) */
  offline: OfflinePaymentsGate;
  methods: PaymentMethods;
  subscriptions: Subscriptions;
  renewal: SubscriptionRenewal;
}

/**
 * Builds the billing services over a provider (the container's, chosen in core/di/adapters.ts); the
 * built-in offline (invoice) one is open only to the accounts an operator approved unless
 * `offlinePayments` is `self-service`.
 */
export function createBilling(db: Db, plans: readonly Plan[], log: Logger, provider: PaymentProvider, offlinePayments: OfflinePaymentsMode = 'operator'): Billing {
  const catalog = new PlanCatalog(plans);
  const methods = new PaymentMethods(db, provider);
  const offline = new OfflinePaymentsGate(provider, offlinePayments);
  return {
    provider,
    plans: catalog,
    offline,
    methods,
    subscriptions: new Subscriptions(db, catalog, methods, provider, offline),
    renewal: new SubscriptionRenewal(db, catalog, methods, provider, log),
  };
}
