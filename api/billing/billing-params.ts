import { bool, int, oneOf, text } from '../options/param-kinds.js';

/**
 * Request fields of the billing operations. They take camelCase names, like the spec's Subscription
 * (`planId`) and Payment method (`expirationMonth`) shapes they go with; each may come in a JSON body
 * or in the query.
 */
export const SUBSCRIBE_PARAMS = {
  planId: text(64, 'id of the plan (GET /billing/plans)'),
  paymentMethodToken: text(64, "token of one of the account's payment methods; default: the account's default method (required for a paid plan)"),
};

export const CANCEL_PARAMS = {
  subscriptionId: text(20, "the subscription to cancel (default: the account's live subscription)", { re: /^\d{1,19}$/, says: 'a subscription id' }),
};

/** An admin approving (or no longer approving) an account as an invoiced customer of the offline provider. */
export const INVOICED_ACCOUNT_PARAMS = {
  companyId: int(1, Number.MAX_SAFE_INTEGER, 'the account (company id, as in GET /admin/users)'),
  invoiced: bool('whether the account may pay by invoice through the offline provider (default true)'),
};

/** Years a card may claim to expire in: from 2000 to 2100 covers every card issued now or soon. */
const MIN_YEAR = 2000;
const MAX_YEAR = 2100;

export const PAYMENT_METHOD_PARAMS = {
  type: oneOf(['card', 'paypal'] as const, 'kind of payment method'),
  nonce: text(255, "a card processor's one-time token for the method (from its client-side SDK); the offline provider takes the details below instead"),
  brand: text(40, 'card brand shown back (visa, mastercard, ...)'),
  last4: text(4, 'last four digits of the card', { re: /^\d{4}$/, says: 'four digits' }),
  expirationMonth: int(1, 12, 'card expiry month'),
  expirationYear: int(MIN_YEAR, MAX_YEAR, 'card expiry year (four digits)'),
  email: text(320, 'PayPal account e-mail', { re: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, says: 'an e-mail address' }),
  default: bool("make this the account's default method (the first one always is)"),
};

/**
 * Names under which a client might send a whole card number or its security code. They are refused
 * with a 400: card numbers never pass through shotfarm (a processor's SDK tokenises them).
 */
export const CARD_SECRET_FIELDS = ['number', 'cardNumber', 'card_number', 'pan', 'cvv', 'cvc', 'cvv2', 'securityCode', 'security_code'];
