import { api } from '../api.js';
import { empty, h, stat, table } from '../dom.js';
import { count, dateTime } from '../format.js';
import { field, input, messageArea, onSubmit, section, select, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import { navigate } from '../router.js';
import type { z } from 'zod';
import type { PaymentMethod as PaymentMethodShape, Plan as PlanShape, Receipt as ReceiptShape } from '../../../../billing/billing-shapes.js';
import type { AccountInfo as AccountInfoShape } from '../../../../accounts/account-shapes.js';

type Plan = z.infer<typeof PlanShape>;
type PaymentMethod = z.infer<typeof PaymentMethodShape>;
type Receipt = z.infer<typeof ReceiptShape>;
/** `plan` is the plan's id (one official client of the original service types it as a string); the details are `plan_details`. */
type AccountInfo = z.infer<typeof AccountInfoShape>;

const failureNextTo =
  (el: Element) =>
  (err: unknown): void =>
    el.after(h('span', { class: 'field-error' }, String(err instanceof Error ? err.message : err)));

function methodLabel(m: PaymentMethod): string {
  if (m.type === 'paypal') return `PayPal ${m.email ?? ''}`;
  const expiry = m.expirationMonth && m.expirationYear ? ` (expires ${String(m.expirationMonth).padStart(2, '0')}/${m.expirationYear})` : '';
  return `${m.brand ?? 'Card'} •••• ${m.last4 ?? ''}${expiry}`;
}

/** Card details the offline provider keeps (never the number: brand, last four digits and expiry). */
function methodForm(): HTMLElement {
  const type = select('type', [
    ['card', 'Card'],
    ['paypal', 'PayPal'],
  ]);
  const brand = input('brand', { placeholder: 'visa' });
  const last4 = input('last4', { inputmode: 'numeric', maxlength: 4, pattern: '\\d{4}' });
  const month = input('expirationMonth', { type: 'number', min: 1, max: 12 });
  const year = input('expirationYear', { type: 'number', min: 2000, max: 2100 });
  const email = input('email', { type: 'email' });
  const area = messageArea();
  const form = h(
    'form',
    { novalidate: true, 'aria-label': 'Add payment method' },
    h(
      'div',
      { class: 'row' },
      field('Payment type', type),
      field('Card brand', brand),
      field('Last 4 digits', last4),
      field('Expiry month', month),
      field('Expiry year', year),
      field('PayPal email', email),
    ),
    area,
    submitButton('Add payment method'),
  );
  onSubmit(form, area, async () => {
    const body: Record<string, string | number> = { type: type.value };
    for (const c of [brand, last4, email]) if (c.value.trim()) body[c.name] = c.value.trim();
    for (const c of [month, year]) if (c.value) body[c.name] = Number(c.value);
    await api('/billing/payment-methods', { json: body });
    flash('Payment method added.');
    navigate('#/billing');
  });
  return form;
}

/** GET /account/info, /billing/plans, /billing/payment-methods, /billing/receipts; subscribe and cancel. */
export async function billingPage(): Promise<HTMLElement> {
  const [account, plans, methods, receipts] = await Promise.all([
    api<AccountInfo>('/account/info'),
    api<Plan[]>('/billing/plans'),
    api<PaymentMethod[]>('/billing/payment-methods'),
    api<Receipt[]>('/billing/receipts'),
  ]);
  const planCard = (p: Plan): HTMLElement => {
    const current = account.plan === p.id;
    const subscribe = h('button', { type: 'button', class: current ? '' : 'primary', disabled: current }, current ? 'Current plan' : `Subscribe to ${p.name}`);
    subscribe.addEventListener('click', () => {
      subscribe.disabled = true;
      api('/billing/subscribe', { json: { planId: p.id } })
        .then(() => {
          flash(`Subscribed to ${p.name}.`);
          navigate('#/billing');
        })
        .catch((err: unknown) => {
          subscribe.disabled = false;
          failureNextTo(subscribe)(err);
        });
    });
    return h(
      'article',
      { class: 'plan', 'aria-label': `Plan ${p.name}` },
      h('h3', null, p.name),
      h('p', { class: 'price' }, `$${p.price_usd} / month`),
      h('p', null, `${count(p.monthly_screenshots)} screenshots a month`),
      p.features.length
        ? h(
            'ul',
            null,
            p.features.map((f) => h('li', null, f)),
          )
        : null,
      p.public ? null : h('p', { class: 'muted' }, 'not public'),
      subscribe,
    );
  };
  const cancel = account.plan ? h('button', { type: 'button', class: 'danger' }, 'Cancel subscription') : null;
  cancel?.addEventListener('click', () => {
    if (!confirm('Cancel the subscription? It runs to the end of the period and does not renew.')) return;
    api('/billing/cancel', { json: {} })
      .then(() => {
        flash('The subscription will not renew.');
        navigate('#/billing');
      })
      .catch(failureNextTo(cancel));
  });
  return h(
    'div',
    null,
    h('h1', null, 'Billing'),
    h('div', { class: 'stats' }, stat('Balance', `${count(account.balance)} credits`), stat('Plan', account.plan_details?.name ?? 'None')),
    cancel ? h('p', null, cancel) : null,
    section('Plans', plans.length === 0 ? empty('No plans are offered.') : h('div', { class: 'plans' }, plans.map(planCard))),
    section(
      'Payment methods',
      methods.length === 0
        ? empty('No payment method yet.')
        : table(
            ['Method', 'Default'],
            methods.map((m) => [methodLabel(m), m.default ? 'default' : '']),
          ),
      h('h3', null, 'Add a payment method'),
      methodForm(),
    ),
    section(
      'Receipts',
      receipts.length === 0
        ? empty('No receipts yet.')
        : table(
            ['Receipt', 'Amount', 'Status', 'Date'],
            receipts.map((r) => [r.id, `${r.amount} ${r.currency}`, r.status, dateTime(r.createdAt)]),
          ),
    ),
  );
}
