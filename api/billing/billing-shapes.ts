import { z } from 'zod';
import type { PaymentMethodRow, ReceiptRow, SubscriptionRow } from './billing-rows.js';

/** The spec's Subscription response: `subscriptionId`, `status`, `planId` (strings). */
export interface SubscriptionShape {
  subscriptionId: string;
  status: string;
  planId: string;
}

/** The spec's Payment method. */
export interface PaymentMethodShape {
  token: string;
  type: 'card' | 'paypal';
  brand?: string;
  last4?: string;
  expirationMonth?: string;
  expirationYear?: string;
  email?: string;
  default: boolean;
}

/** The spec's Receipt: `id`, `amount` (string), `currency`, `status`, `createdAt`, optional `updatedAt` (strings). */
export interface ReceiptShape {
  id: string;
  amount: string;
  currency: string;
  status: string;
  createdAt: string;
  updatedAt?: string;
}

export function subscriptionShape(row: SubscriptionRow): SubscriptionShape {
  return { subscriptionId: String(row.id), status: row.status, planId: row.plan_id };
}

/**
 * Expiry month and year are strings, as card processors (and the clients of the original service)
 * spell them: a month keeps its leading zero ("04").
 */
export function paymentMethodShape(row: PaymentMethodRow): PaymentMethodShape {
  const shape: PaymentMethodShape = { token: row.token, type: row.type, default: row.is_default };
  if (row.brand) shape.brand = row.brand;
  if (row.last4) shape.last4 = row.last4;
  if (row.expiration_month !== null) shape.expirationMonth = String(row.expiration_month).padStart(2, '0');
  if (row.expiration_year !== null) shape.expirationYear = String(row.expiration_year);
  if (row.email) shape.email = row.email;
  return shape;
}

/** Amounts are decimal strings with two places ("19.00"), so no client rounds a float. */
export function receiptShape(row: ReceiptRow): ReceiptShape {
  const shape: ReceiptShape = {
    id: String(row.id),
    amount: (row.amount_cents / 100).toFixed(2),
    currency: row.currency,
    status: row.status,
    createdAt: row.created_at.toISOString(),
  };
  if (row.updated_at) shape.updatedAt = row.updated_at.toISOString();
  return shape;
}

// The zod shapes of the answers (openapi.json's components/schemas), beside the row conversions above.

export const Plan = z.looseObject({
  id: z.string(),
  name: z.string(),
  price_usd: z.number(),
  monthly_screenshots: z.number().int(),
  features: z.array(z.string()),
  public: z.boolean(),
  payment_plan_ids: z.looseObject({ monthly: z.string().optional(), yearly: z.string().optional() }).optional(),
  addons: z.array(z.looseObject({ id: z.string(), quantity: z.number() })).optional(),
});

export const Subscription = z.looseObject({ subscriptionId: z.string(), status: z.string(), planId: z.string() });
export const PaymentMethod = z.looseObject({
  token: z.string(),
  type: z.enum(['card', 'paypal']),
  brand: z.string().optional(),
  last4: z.string().optional(),
  expirationMonth: z.string().optional(),
  expirationYear: z.string().optional(),
  email: z.string().optional(),
  default: z.boolean(),
});
export const Receipt = z.looseObject({ id: z.string(), amount: z.string(), currency: z.string(), status: z.string(), createdAt: z.string(), updatedAt: z.string().optional() });
export const InvoicedAccount = z.looseObject({ companyId: z.number().int(), invoiced: z.boolean() });
