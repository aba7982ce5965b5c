import { api } from '../api.js';
import { h } from '../dom.js';
import { field, input, messageArea, onSubmit, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import { navigate } from '../router.js';
import { restoreSession } from '../auth.js';
import type { z } from 'zod';
import type { SignupResponse } from '../../../../auth/auth-shapes.js';

/** The answer of POST /auth/signup. */
type SignupAnswer = z.infer<typeof SignupResponse>;

/** POST /auth/signup: a new account, its user and a first API key (shown once, on the next page). */
export function signupPage(): HTMLElement {
  const email = input('email', { type: 'email', autocomplete: 'username', required: true });
  const password = input('password', { type: 'password', autocomplete: 'new-password', required: true });
  const name = input('name', { autocomplete: 'name' });
  const company = input('company', { autocomplete: 'organization' });
  const area = messageArea();
  const form = h(
    'form',
    { class: 'auth-form', novalidate: true },
    field('Email', email),
    field('Password', password),
    field('Your name (optional)', name),
    field('Company (optional)', company),
    area,
    submitButton('Sign up'),
  );
  onSubmit(form, area, async () => {
    const body: Record<string, string> = { email: email.value.trim(), password: password.value };
    if (name.value.trim()) body.name = name.value.trim();
    if (company.value.trim()) body.company = company.value.trim();
    const answer = await api<SignupAnswer>('/auth/signup', { json: body });
    await restoreSession();
    flash('Welcome! Your first API key is below. It is shown only once: copy it now.', answer.api_key.key);
    navigate('#/');
  });
  return h('div', { class: 'auth' }, h('h1', null, 'Sign up'), form, h('p', null, 'Already have an account? ', h('a', { href: '#/login' }, 'Log in')));
}
