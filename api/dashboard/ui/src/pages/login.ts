import { api } from '../api.js';
import { h } from '../dom.js';
import { field, input, messageArea, onSubmit, submitButton } from '../forms.js';
import { navigate } from '../router.js';
import { restoreSession } from '../auth.js';

/** POST /auth/login: email and password for a session (the server sets its cookie). */
export function loginPage(): HTMLElement {
  const email = input('email', { type: 'email', autocomplete: 'username', required: true });
  const password = input('password', { type: 'password', autocomplete: 'current-password', required: true });
  const area = messageArea();
  const form = h('form', { class: 'auth-form', novalidate: true }, field('Email', email), field('Password', password), area, submitButton('Log in'));
  onSubmit(form, area, async () => {
    await api('/auth/login', { json: { email: email.value.trim(), password: password.value } });
    await restoreSession();
    navigate('#/');
  });
  return h(
    'div',
    { class: 'auth' },
    h('h1', null, 'Log in'),
    form,
    h('p', null, 'No account yet? ', h('a', { href: '#/signup' }, 'Sign up')),
    h('p', null, h('a', { href: '#/forgot-password' }, 'Forgot your password?')),
  );
}
