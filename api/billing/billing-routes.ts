import { z } from 'zod';
import { notFound, validationError } from '../../core/errors.js';
import { CANCEL_PARAMS, CARD_SECRET_FIELDS, INVOICED_ACCOUNT_PARAMS, PAYMENT_METHOD_PARAMS, SUBSCRIBE_PARAMS } from './billing-params.js';
import { readParams } from '../options/read-params.js';
import { receiptRow } from './billing-rows.js';
import { jsonBodyParams } from '../http/json-body.js';
import { callerOf } from '../http/state.js';
import { InvoicedAccount, PaymentMethod, paymentMethodShape, Plan, Receipt, receiptShape, Subscription, subscriptionShape } from './billing-shapes.js';
import { defineRoute, type ApiRoute } from '../http/route.js';

const tag = 'Billing';

/** Receipts listed at most: ten years of monthly periods. */
const MAX_RECEIPTS = 120;

/**
 * /billing: plans, subscribing and cancelling, payment methods and receipts of the caller's account,
 * in the spec's Plan, Subscription, Payment method and Receipt shapes.
 */
export const BILLING_ROUTES: ApiRoute[] = [
  // Users see the public plans; an admin sees every plan, each saying whether it is public.
  defineRoute({
    method: 'get',
    path: '/billing/plans',
    operationId: 'listPlans',
    tag,
    credentials: 'account',
    summary: 'The public plans (an admin also sees the others)',
    response: { data: z.array(Plan), description: 'The plans' },
    handler: (ctx, { billing }) => billing.plans.visibleTo(callerOf(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/billing/subscribe',
    operationId: 'subscribe',
    tag,
    credentials: 'account',
    summary: 'Subscribe to a plan: a first period is charged (or invoiced) and granted; an upgrade within a period is charged and granted prorated, a downgrade waits for the next period',
    body: SUBSCRIBE_PARAMS,
    required: ['planId'],
    response: { data: Subscription, description: 'The subscription' },
    handler: async (ctx, { billing }, p) => subscriptionShape(await billing.subscriptions.subscribe(callerOf(ctx), { planId: p.planId as string, paymentMethodToken: p.paymentMethodToken })),
  }),
  defineRoute({
    method: 'post',
    path: '/billing/cancel',
    operationId: 'cancelSubscription',
    tag,
    credentials: 'account',
    summary: 'Cancel the live subscription: it runs to the end of its period and does not renew',
    body: CANCEL_PARAMS,
    response: { data: Subscription, description: 'The subscription' },
    handler: async (ctx, { billing }, p) => subscriptionShape(await billing.subscriptions.cancel(callerOf(ctx), p)),
  }),
  defineRoute({
    method: 'get',
    path: '/billing/payment-methods',
    operationId: 'listPaymentMethods',
    tag,
    credentials: 'account',
    summary: "The account's payment methods",
    response: { data: z.array(PaymentMethod), description: 'The payment methods' },
    handler: async (ctx, { billing }) => (await billing.methods.list(callerOf(ctx).companyId)).map(paymentMethodShape),
  }),
  defineRoute({
    method: 'post',
    path: '/billing/payment-methods',
    operationId: 'addPaymentMethod',
    tag,
    credentials: 'account',
    summary: 'Add a payment method (a processor nonce, or card brand/last4/expiry or a PayPal email with the offline provider)',
    body: PAYMENT_METHOD_PARAMS,
    required: ['type'],
    // Card numbers are refused by name before the fields are read: the handler reads them.
    validatedBy: 'handler',
    response: { data: PaymentMethod, description: 'The payment method' },
    handler: async (ctx, { db, billing }) => {
      const caller = callerOf(ctx);
      const input = jsonBodyParams(ctx);
      const secrets = CARD_SECRET_FIELDS.filter((f) => input[f] !== undefined);
      if (secrets.length > 0) {
        throw validationError(Object.fromEntries(secrets.map((f) => [f, ['card numbers and security codes are never accepted: send a processor nonce, or brand, last4 and expiry']])));
      }
      const { default: makeDefault, ...details } = readParams(PAYMENT_METHOD_PARAMS, input, ['type']);
      await billing.offline.assertAllowed(db, caller);
      return paymentMethodShape(await billing.methods.add(caller.companyId, { ...details, type: details.type as 'card' | 'paypal' }, makeDefault ?? false));
    },
  }),
  // The operator sets up an invoiced customer: the account may then pay through the offline provider.
  defineRoute({
    method: 'post',
    path: '/billing/invoiced-accounts',
    operationId: 'setInvoicedAccount',
    tag,
    credentials: 'admin',
    summary: 'Admin: approve an account as an invoiced customer, who may then pay through the offline provider (SHOTFARM_OFFLINE_PAYMENTS=operator)',
    body: INVOICED_ACCOUNT_PARAMS,
    required: ['companyId'],
    response: { data: InvoicedAccount, description: "The account's invoiced flag" },
    handler: async (ctx, { db, log }, p) => {
      const admin = callerOf(ctx);
      const invoiced = p.invoiced ?? true;
      const updated = await db('companies').where({ id: p.companyId }).update({ invoiced });
      if (updated === 0) throw notFound('Account');
      log.info(
        { audit: 'invoiced_account', company_id: p.companyId, invoiced, admin_user_id: admin.userId, impersonated_by: admin.impersonatedBy ?? null, request_id: ctx.state.requestId },
        'invoiced customer set by an admin',
      );
      return { companyId: p.companyId, invoiced };
    },
  }),
  // Newest first.
  defineRoute({
    method: 'get',
    path: '/billing/receipts',
    operationId: 'listReceipts',
    tag,
    credentials: 'account',
    summary: 'One receipt per subscription period, newest first',
    response: { data: z.array(Receipt), description: 'The receipts' },
    handler: async (ctx, { db }) =>
      (
        await db('receipts')
          .where({ company_id: callerOf(ctx).companyId })
          .orderBy('id', 'desc')
          .limit(MAX_RECEIPTS)
      ).map((r) => receiptShape(receiptRow(r))),
  }),
];
