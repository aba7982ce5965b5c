import { api } from '../api.js';
import { h } from '../dom.js';
import { field, input, messageArea, onSubmit, showMessage, submitButton } from '../forms.js';

/** POST /auth/forgot-password: the service emails a reset link (and says the same whether the address exists). */
export function forgotPasswordPage(): HTMLElement {
  const email = input('email', { type: 'email', autocomplete: 'username', required: true });
  const area = messageArea();
  const form = h('form', { class: 'auth-form', novalidate: true }, field('Email', email), area, submitButton('Send reset link'));
  onSubmit(form, area, async () => {
    await api('/auth/forgot-password', { json: { email: email.value.trim() } });
    showMessage(area, 'If an account uses this address, an email with a reset link is on its way.', 'ok');
  });
  return h('div', { class: 'auth' }, h('h1', null, 'Reset your password'), form, h('p', null, h('a', { href: '#/login' }, 'Back to log in')));
}
