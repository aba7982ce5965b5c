import { randomUUID } from 'node:crypto';
import { PaymentDetailsError, type AttachedPaymentMethod, type PaymentMethodInput, type PaymentProvider, type PeriodCharge, type PeriodChargeInput } from '../../core/contracts/payment-provider.js';

/**
 * The built-in provider: nothing is charged online. A payment method is a record of how the account
 * pays (the card or PayPal account an operator bills by hand, shown back by brand, last 4 digits and
 * expiry, or e-mail); each period of a paid plan is `invoiced`, settled outside shotfarm, and a free
 * plan's period is `paid` at once. Credits are granted for both, as the operator trusts the accounts
 * they invoice (which is why only approved accounts may use it: offline-payments.ts); an adapter for a
 * card processor grants only what it could charge.
 */
export class OfflinePaymentProvider implements PaymentProvider {
  readonly name = 'offline';

  constructor(private readonly now: () => Date = () => new Date()) {}

  async attachPaymentMethod(input: { companyId: number; details: PaymentMethodInput }): Promise<AttachedPaymentMethod> {
    const d = input.details;
    if (d.nonce !== undefined)
      throw new PaymentDetailsError('nonce', "is not used by the offline payment provider: send the card's brand, last4, expirationMonth and expirationYear, or a PayPal email");
    const ref = `offline:${randomUUID()}`;
    if (d.type === 'paypal') {
      if (!d.email) throw new PaymentDetailsError('email', 'is required for a paypal payment method');
      return { providerRef: ref, type: 'paypal', brand: null, last4: null, expirationMonth: null, expirationYear: null, email: d.email };
    }
    for (const field of ['last4', 'expirationMonth', 'expirationYear'] as const) {
      if (d[field] === undefined) throw new PaymentDetailsError(field, 'is required for a card');
    }
    const now = this.now();
    // A card is valid through the last day of its expiry month.
    if ((d.expirationYear as number) * 12 + (d.expirationMonth as number) < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
      throw new PaymentDetailsError('expirationYear', 'the card has expired');
    }
    return {
      providerRef: ref,
      type: 'card',
      brand: d.brand?.toLowerCase() ?? null,
      last4: d.last4 as string,
      expirationMonth: d.expirationMonth as number,
      expirationYear: d.expirationYear as number,
      email: null,
    };
  }

  async chargePeriod(input: PeriodChargeInput): Promise<PeriodCharge> {
    // The invoice number is the period's idempotency key: the same period always has the same number.
    return { status: input.amountCents === 0 ? 'paid' : 'invoiced', providerRef: `invoice:${input.idempotencyKey}` };
  }

  async cancelSubscription(): Promise<void> {
    // Nothing is held at a processor: the control plane's own record of the cancellation is all there is.
  }
}
