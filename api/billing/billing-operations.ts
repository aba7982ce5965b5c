import type { Operation } from '../routes/openapi.js';
import { CANCEL_PARAMS, INVOICED_ACCOUNT_PARAMS, PAYMENT_METHOD_PARAMS, SUBSCRIBE_PARAMS } from '../../core/request/billing-params.js';

/** The OpenAPI entries of the billing and overview operations, from the tables that validate them. */
export const BILLING_OPERATIONS: Operation[] = [
  { method: 'get', path: '/billing/plans', summary: 'The public plans (an admin also sees the others)' },
  { method: 'post', path: '/billing/subscribe', summary: 'Subscribe to a plan: a first period is charged (or invoiced) and granted; an upgrade within a period is charged and granted prorated, a downgrade waits for the next period (JSON body)', params: SUBSCRIBE_PARAMS, required: ['planId'] },
  { method: 'post', path: '/billing/cancel', summary: 'Cancel the live subscription: it runs to the end of its period and does not renew', params: CANCEL_PARAMS },
  { method: 'get', path: '/billing/payment-methods', summary: 'The account\'s payment methods' },
  { method: 'post', path: '/billing/payment-methods', summary: 'Add a payment method (a processor nonce, or card brand/last4/expiry or a PayPal email with the offline provider)', params: PAYMENT_METHOD_PARAMS, required: ['type'] },
  { method: 'post', path: '/billing/invoiced-accounts', summary: 'Admin: approve an account as an invoiced customer, who may then pay through the offline provider (SHOTFARM_OFFLINE_PAYMENTS=operator)', params: INVOICED_ACCOUNT_PARAMS, required: ['companyId'] },
  { method: 'get', path: '/billing/receipts', summary: 'One receipt per subscription period, newest first' },
  { method: 'get', path: '/dashboard/overview', summary: 'The caller\'s account, plan and its period\'s usage, screenshot and batch counts, latest screenshots' },
  { method: 'get', path: '/admin/overview', summary: 'Admin: totals across every account, the last 24 hours, top users of the last 30 days' },
];
