import { api } from '../api.js';
import { h } from '../dom.js';
import { field, input, messageArea, onSubmit, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { PageContext } from '../page.js';
import { navigate } from '../router.js';
import { endSession } from '../session.js';

/** The link of the reset email: a new password with its token (POST /auth/reset-password), then log in. */
export function resetPasswordPage(ctx: PageContext): HTMLElement {
  const code = ctx.query.get('token') ?? '';
  const password = input('password', { type: 'password', autocomplete: 'new-password', required: true });
  const area = messageArea();
  const form = h('form', { class: 'auth-form', novalidate: true }, field('New password', password), area, submitButton('Set password'));
  onSubmit(form, area, async () => {
    await api('/auth/reset-password', { json: { token: code, password: password.value } });
    // The reset ends every session of the user, this browser's included.
    endSession();
    flash('Your password is changed: log in with it.');
    navigate('#/login');
  });
  return h(
    'div',
    { class: 'auth' },
    h('h1', null, 'Choose a new password'),
    code ? form : h('p', { role: 'alert' }, 'This link has no token: open the link of the email again.'),
    h('p', null, h('a', { href: '#/login' }, 'Back to log in')),
  );
}
