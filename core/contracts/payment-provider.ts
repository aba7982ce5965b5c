import type { Plan } from '../billing/plan.js';

/**
 * What charges for subscriptions: the built-in offline (invoice) provider, or an adapter for a card
 * processor. The control plane owns subscriptions, periods, receipts and credits; a provider only
 * moves money (or records that an invoice is owed) and keeps the payment details it needs. Nothing of
 * a card but what is shown back (brand, last 4 digits, expiry) ever reaches shotfarm: a processor's
 * client-side SDK turns the card into a `nonce` the adapter exchanges for its own reference.
 * See api/billing/README.md for how an adapter plugs in.
 */
export interface PaymentProvider {
  /** a short name stored with each payment method and receipt (`offline`, `stripe`, ...) */
  readonly name: string;

  /**
   * Turns what the client sent into a payment method the provider can charge later. Rejects with
   * PaymentDetailsError when the details are unusable (the API answers 400 naming the field).
   */
  attachPaymentMethod(input: { companyId: number; details: PaymentMethodInput }): Promise<AttachedPaymentMethod>;

  /**
   * Charges (or invoices) one period of a subscription. `idempotencyKey` is the same for every attempt
   * at one period, so a processor that supports idempotency never charges a period twice, even when the
   * control plane retries after a crash. A decline is a `failed` charge, not an exception; exceptions
   * mean "could not reach the provider" and the period is tried again later.
   */
  chargePeriod(input: PeriodChargeInput): Promise<PeriodCharge>;

  /** Tells the provider a subscription will not renew (it stays usable until its period ends). */
  cancelSubscription(input: { companyId: number; subscriptionId: number }): Promise<void>;
}

/** What a client posts to add a payment method. `nonce` is a processor's token for card details. */
export interface PaymentMethodInput {
  type: 'card' | 'paypal';
  nonce?: string;
  brand?: string;
  last4?: string;
  expirationMonth?: number;
  expirationYear?: number;
  email?: string;
}

/** A payment method as the provider keeps it: its own reference plus what may be shown back. */
export interface AttachedPaymentMethod {
  /** the provider's id for the method (a processor's payment method id; the offline provider's own) */
  providerRef: string;
  type: 'card' | 'paypal';
  brand: string | null;
  last4: string | null;
  expirationMonth: number | null;
  expirationYear: number | null;
  email: string | null;
}

export interface PeriodChargeInput {
  companyId: number;
  subscriptionId: number;
  plan: Plan;
  amountCents: number;
  /** ISO 4217; plans are priced in US dollars */
  currency: 'USD';
  periodStart: Date;
  periodEnd: Date;
  /** the method to charge; null for a free plan, or an invoice sent to the account's e-mail */
  paymentMethod: AttachedPaymentMethod | null;
  idempotencyKey: string;
}

/**
 * The outcome of one period: `paid` (money taken), `invoiced` (owed, settled outside shotfarm) or
 * `failed` (declined: the period grants nothing and the subscription becomes `past_due`).
 */
export interface PeriodCharge {
  status: 'paid' | 'invoiced' | 'failed';
  providerRef: string;
  message?: string;
}

/** Payment details a provider refuses; `field` is the request field to name in the 400. */
export class PaymentDetailsError extends Error {
  constructor(
    public readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentDetailsError';
  }
}
