import Router from '@koa/router';
import type { Db } from '../../core/db/connect.js';
import { notFound, validationError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { CANCEL_PARAMS, CARD_SECRET_FIELDS, INVOICED_ACCOUNT_PARAMS, PAYMENT_METHOD_PARAMS, SUBSCRIBE_PARAMS } from '../../core/request/billing-params.js';
import { readParams } from '../../core/request/read-params.js';
import type { Billing } from '../billing/billing.js';
import { receiptRow } from '../billing/billing-rows.js';
import { paymentMethodShape, receiptShape, subscriptionShape } from '../billing/billing-shapes.js';
import { jsonBodyParams } from '../http/json-body.js';
import { callerOf, requireAdmin, type AppState } from '../http/state.js';

/** Receipts listed at most: ten years of monthly periods. */
const MAX_RECEIPTS = 120;

/**
 * /billing: plans, subscribing and cancelling, payment methods and receipts of the caller's account,
 * in the spec's Plan, Subscription, Payment method and Receipt shapes.
 */
export function billingRoutes(db: Db, billing: Billing, log: Logger): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/billing' });

  // Users see the public plans; an admin sees every plan, each saying whether it is public.
  router.get('/plans', async (ctx) => {
    ctx.body = { success: true, data: billing.plans.visibleTo(callerOf(ctx)) };
  });

  router.post('/subscribe', async (ctx) => {
    const caller = callerOf(ctx);
    const params = readParams(SUBSCRIBE_PARAMS, jsonBodyParams(ctx), ['planId']);
    const sub = await billing.subscriptions.subscribe(caller, { planId: params.planId as string, paymentMethodToken: params.paymentMethodToken });
    ctx.body = { success: true, data: subscriptionShape(sub) };
  });

  router.post('/cancel', async (ctx) => {
    const caller = callerOf(ctx);
    const params = readParams(CANCEL_PARAMS, jsonBodyParams(ctx));
    ctx.body = { success: true, data: subscriptionShape(await billing.subscriptions.cancel(caller, params)) };
  });

  router.get('/payment-methods', async (ctx) => {
    const rows = await billing.methods.list(callerOf(ctx).companyId);
    ctx.body = { success: true, data: rows.map(paymentMethodShape) };
  });

  router.post('/payment-methods', async (ctx) => {
    const caller = callerOf(ctx);
    const input = jsonBodyParams(ctx);
    const secrets = CARD_SECRET_FIELDS.filter((f) => input[f] !== undefined);
    if (secrets.length > 0) {
      throw validationError(Object.fromEntries(secrets.map((f) => [f, ['card numbers and security codes are never accepted: send a processor nonce, or brand, last4 and expiry']])));
    }
    const { default: makeDefault, ...details } = readParams(PAYMENT_METHOD_PARAMS, input, ['type']);
    await billing.offline.assertAllowed(db, caller);
    const row = await billing.methods.add(caller.companyId, { ...details, type: details.type as 'card' | 'paypal' }, makeDefault ?? false);
    ctx.body = { success: true, data: paymentMethodShape(row) };
  });

  // The operator sets up an invoiced customer: the account may then pay through the offline provider.
  router.post('/invoiced-accounts', async (ctx) => {
    const admin = requireAdmin(ctx);
    const p = readParams(INVOICED_ACCOUNT_PARAMS, jsonBodyParams(ctx), ['companyId']);
    const invoiced = p.invoiced ?? true;
    const updated = await db('companies').where({ id: p.companyId }).update({ invoiced });
    if (updated === 0) throw notFound('Account');
    log.info({ audit: 'invoiced_account', company_id: p.companyId, invoiced, admin_user_id: admin.userId, impersonated_by: admin.impersonatedBy ?? null, request_id: ctx.state.requestId }, 'invoiced customer set by an admin');
    ctx.body = { success: true, data: { companyId: p.companyId, invoiced } };
  });

  // Newest first.
  router.get('/receipts', async (ctx) => {
    const rows = await db('receipts').where({ company_id: callerOf(ctx).companyId }).orderBy('id', 'desc').limit(MAX_RECEIPTS);
    ctx.body = { success: true, data: rows.map((r) => receiptShape(receiptRow(r))) };
  });

  return router;
}
