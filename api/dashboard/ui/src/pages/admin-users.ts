import { api } from '../api.js';
import { empty, h, table } from '../dom.js';
import { count, dateTime } from '../format.js';
import { field, input, messageArea, onSubmit, section, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { PageContext } from '../page.js';
import { navigate } from '../router.js';
import { actAs } from '../auth.js';
import { currentUser, impersonating } from '../session.js';
import type { z } from 'zod';
import type { AdminUser as AdminUserShape } from '../../../../admin/admin-shapes.js';

/** A user as GET /admin/users lists them. */
type AdminUser = z.infer<typeof AdminUserShape>;

/** POST /admin/credits: adds (or, negative, removes) credits of an account, with the reason for the audit log. */
function creditsForm(companyId: string): HTMLElement {
  const company = input('company_id', { type: 'number', min: 1, required: true, value: companyId });
  const amount = input('amount', { type: 'number', required: true });
  const reason = input('reason', { required: true });
  const area = messageArea();
  const form = h(
    'form',
    { novalidate: true, 'aria-label': 'Change credits' },
    h('div', { class: 'row' }, field('Account ID', company), field('Credits', amount, 'Negative to take credits away.'), field('Reason', reason)),
    area,
    submitButton('Change credits'),
  );
  onSubmit(form, area, async () => {
    await api('/admin/credits', { json: { company_id: Number(company.value), amount: Number(amount.value), reason: reason.value } });
    flash(`Credits of account ${company.value} changed by ${amount.value}.`);
    navigate(`#/admin/users?${new URLSearchParams({ company: company.value }).toString()}`);
  });
  return form;
}

/** GET /admin/users (search by email), credits, impersonation. */
export async function adminUsersPage(ctx: PageContext): Promise<HTMLElement> {
  const search = ctx.query.get('email') ?? '';
  const users = await api<AdminUser[]>('/admin/users', { query: { email: search, limit: 100 } });
  const email = input('email', { type: 'search', value: search });
  const searchForm = h('form', { role: 'search', 'aria-label': 'Find users', class: 'filters' }, field('Email contains', email), h('button', { type: 'submit' }, 'Search'));
  searchForm.addEventListener('submit', (e) => {
    e.preventDefault();
    navigate(`#/admin/users?${new URLSearchParams({ email: email.value.trim() }).toString()}`);
  });
  const rows = users.map((u) => {
    const act = h('button', { type: 'button', disabled: u.id === currentUser()?.id || impersonating() }, 'Act as');
    act.addEventListener('click', () => {
      actAs(u.id)
        .then((user) => {
          flash(`You are acting as ${user.email}. "Back to my account" ends it.`);
          navigate('#/');
        })
        .catch((err: unknown) => act.after(h('span', { class: 'field-error' }, String(err instanceof Error ? err.message : err))));
    });
    return [
      String(u.id),
      u.email,
      `${u.company.name} (#${u.company.id})`,
      count(u.company.balance),
      u.roles.join(', '),
      dateTime(u.created_at),
      h('span', { class: 'actions' }, h('a', { class: 'button', href: `#/admin/users?${new URLSearchParams({ email: search, company: String(u.company.id) }).toString()}` }, 'Credits'), act),
    ];
  });
  return h(
    'div',
    null,
    h('h1', null, 'Users'),
    searchForm,
    section('Users', users.length === 0 ? empty('No user matches.') : table(['ID', 'Email', 'Account', 'Balance', 'Roles', 'Signed up', ''], rows)),
    section('Credits', creditsForm(ctx.query.get('company') ?? '')),
  );
}
