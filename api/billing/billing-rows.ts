/** The billing tables' rows, as the code reads them (timestamps as Date, ids as numbers). */
export type SubscriptionStatus = 'active' | 'cancelled' | 'past_due' | 'ended';

/** A live subscription is the account's current one: active, or cancelled but running to its period's end. */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'cancelled'];

export interface SubscriptionRow {
  id: number;
  company_id: number;
  plan_id: string;
  next_plan_id: string | null;
  status: SubscriptionStatus;
  payment_method_id: number | null;
  provider: string;
  anchor: Date;
  period_number: number;
  current_period_start: Date;
  current_period_end: Date;
  cancelled_at: Date | null;
  ended_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface PaymentMethodRow {
  id: number;
  company_id: number;
  token: string;
  provider: string;
  provider_ref: string;
  type: 'card' | 'paypal';
  brand: string | null;
  last4: string | null;
  expiration_month: number | null;
  expiration_year: number | null;
  email: string | null;
  is_default: boolean;
  created_at: Date;
}

export interface ReceiptRow {
  id: number;
  company_id: number;
  subscription_id: number;
  plan_id: string;
  period_start: Date;
  period_end: Date;
  amount_cents: number;
  currency: string;
  status: string;
  provider: string;
  provider_ref: string;
  created_at: Date;
  updated_at: Date | null;
}

const asDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const asDateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : asDate(v));

/** Normalises a subscriptions row (drivers differ in how they return timestamps and int8). */
export function subscriptionRow(row: Record<string, unknown>): SubscriptionRow {
  return {
    ...(row as unknown as SubscriptionRow),
    id: Number(row.id),
    company_id: Number(row.company_id),
    period_number: Number(row.period_number),
    next_plan_id: (row.next_plan_id as string | null | undefined) ?? null,
    payment_method_id: row.payment_method_id === null ? null : Number(row.payment_method_id),
    anchor: asDate(row.anchor),
    current_period_start: asDate(row.current_period_start),
    current_period_end: asDate(row.current_period_end),
    cancelled_at: asDateOrNull(row.cancelled_at),
    ended_at: asDateOrNull(row.ended_at),
    created_at: asDate(row.created_at),
    updated_at: asDate(row.updated_at),
  };
}

export function paymentMethodRow(row: Record<string, unknown>): PaymentMethodRow {
  return {
    ...(row as unknown as PaymentMethodRow),
    id: Number(row.id),
    company_id: Number(row.company_id),
    expiration_month: row.expiration_month === null ? null : Number(row.expiration_month),
    expiration_year: row.expiration_year === null ? null : Number(row.expiration_year),
    created_at: asDate(row.created_at),
  };
}

export function receiptRow(row: Record<string, unknown>): ReceiptRow {
  return {
    ...(row as unknown as ReceiptRow),
    id: Number(row.id),
    company_id: Number(row.company_id),
    subscription_id: Number(row.subscription_id),
    amount_cents: Number(row.amount_cents),
    period_start: asDate(row.period_start),
    period_end: asDate(row.period_end),
    created_at: asDate(row.created_at),
    updated_at: asDateOrNull(row.updated_at),
  };
}
