import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/connect.js';
import { fieldError, notFound } from '../../core/errors.js';
import { PaymentDetailsError, type AttachedPaymentMethod, type PaymentMethodInput, type PaymentProvider } from '../../core/contracts/payment-provider.js';
import { paymentMethodRow, type PaymentMethodRow } from './billing-rows.js';
import { lockCompany } from '../accounts/lock-company.js';

/** `pm_` marks payment method tokens; 18 random bytes cannot be guessed or enumerated. */
const newToken = (): string => `pm_${randomBytes(18).toString('base64url')}`;

/** An account's payment methods: added through the provider, listed, and found by token (within the account). */
export class PaymentMethods {
  constructor(
    private readonly db: Db,
    private readonly provider: PaymentProvider,
  ) {}

  async list(companyId: number): Promise<PaymentMethodRow[]> {
    const rows = await this.db('payment_methods').where({ company_id: companyId }).orderBy('id');
    return rows.map(paymentMethodRow);
  }

  /**
   * Attaches a method through the provider and stores it. The account's first method is its default;
   * `makeDefault` moves the default to the new one. A provider's refusal is a 400 naming the field.
   */
  async add(companyId: number, details: PaymentMethodInput, makeDefault: boolean): Promise<PaymentMethodRow> {
    let attached: AttachedPaymentMethod;
    try {
      attached = await this.provider.attachPaymentMethod({ companyId, details });
    } catch (err) {
      if (err instanceof PaymentDetailsError) throw fieldError(err.field, err.message);
      throw err;
    }
    return this.db.transaction(async (trx) => {
      // The account row orders concurrent additions, so exactly one method ends up the default.
      await lockCompany(trx, companyId).first('id');
      const hasDefault = await trx('payment_methods').where({ company_id: companyId, is_default: true }).first('id');
      const isDefault = makeDefault || !hasDefault;
      if (isDefault) await trx('payment_methods').where({ company_id: companyId }).update({ is_default: false });
      const [row] = await trx('payment_methods')
        .insert({
          company_id: companyId,
          token: newToken(),
          provider: this.provider.name,
          provider_ref: attached.providerRef,
          type: attached.type,
          brand: attached.brand,
          last4: attached.last4,
          expiration_month: attached.expirationMonth,
          expiration_year: attached.expirationYear,
          email: attached.email,
          is_default: isDefault,
        })
        .returning('*');
      return paymentMethodRow(row);
    });
  }

  /** The account's method with this token; another account's token is a 404, exactly like an unknown one. */
  async byToken(trx: Knex | Knex.Transaction, companyId: number, token: string): Promise<PaymentMethodRow> {
    const row = await trx('payment_methods').where({ company_id: companyId, token }).first();
    if (!row) throw notFound('Payment method');
    return paymentMethodRow(row);
  }

  async defaultOf(trx: Knex | Knex.Transaction, companyId: number): Promise<PaymentMethodRow | null> {
    const row = await trx('payment_methods').where({ company_id: companyId, is_default: true }).first();
    return row ? paymentMethodRow(row) : null;
  }

  async byId(trx: Knex | Knex.Transaction, id: number): Promise<PaymentMethodRow | null> {
    const row = await trx('payment_methods').where({ id }).first();
    return row ? paymentMethodRow(row) : null;
  }
}

/** What the provider needs of a stored method to charge it. */
export function attachedOf(row: PaymentMethodRow): AttachedPaymentMethod {
  return {
    providerRef: row.provider_ref,
    type: row.type,
    brand: row.brand,
    last4: row.last4,
    expirationMonth: row.expiration_month,
    expirationYear: row.expiration_year,
    email: row.email,
  };
}
