import type { Knex } from 'knex';
import type { PaymentProvider } from '../../core/contracts/payment-provider.js';
import { forbidden } from '../../core/errors.js';
import type { Caller } from '../http/state.js';
import { OfflinePaymentProvider } from './offline-provider.js';

/** SHOTFARM_OFFLINE_PAYMENTS: who may pay by invoice through the built-in offline provider. */
export const OFFLINE_PAYMENT_MODES = ['operator', 'self-service'] as const;
export type OfflinePaymentsMode = (typeof OFFLINE_PAYMENT_MODES)[number];

/**
 * The offline provider charges nothing and grants credits for invoiced periods: it is for customers the
 * operator trusts to pay an invoice. With open sign-up, anyone could otherwise add a made-up card and
 * take a paid plan's credits. So, unless SHOTFARM_OFFLINE_PAYMENTS is `self-service`, only an admin, or
 * an account an admin approved as an invoiced customer (POST /billing/invoiced-accounts), may add a
 * payment method or take a paid plan through it. A card processor's adapter charges before granting
 * and is not restricted.
 */
export class OfflinePaymentsGate {
  constructor(
    private readonly provider: PaymentProvider,
    private readonly mode: OfflinePaymentsMode,
  ) {}

  /** Throws 403 FORBIDDEN when this caller may not pay through the offline provider. */
  async assertAllowed(db: Knex | Knex.Transaction, caller: Caller): Promise<void> {
    if (!(this.provider instanceof OfflinePaymentProvider) || this.mode === 'self-service' || caller.roles.includes('admin')) return;
    const company = await db('companies').where({ id: caller.companyId }).first('invoiced');
    if (company?.invoiced === true) return;
    throw forbidden('Paying by invoice is for customers the operator has approved: ask the operator to set your account up as an invoiced customer, or choose the free plan');
  }
}
