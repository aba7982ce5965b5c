import { api } from '../api.js';
import { h } from '../dom.js';
import type { PageContext } from '../page.js';
import { currentUser } from '../session.js';

/** The link of the verification email: POST /auth/verify-email with its token, with or without a session. */
export async function verifyEmailPage(ctx: PageContext): Promise<HTMLElement> {
  const code = ctx.query.get('token') ?? '';
  const next = currentUser() ? h('a', { href: '#/' }, 'Go to the overview') : h('a', { href: '#/login' }, 'Log in');
  if (!code) return h('div', { class: 'auth' }, h('h1', null, 'Verify your email'), h('p', { role: 'alert' }, 'This link has no token: open the link of the email again.'), next);
  try {
    await api('/auth/verify-email', { json: { token: code } });
    return h('div', { class: 'auth' }, h('h1', null, 'Verify your email'), h('p', { class: 'form-message ok', role: 'status' }, 'Your email address is verified.'), next);
  } catch (err) {
    return h('div', { class: 'auth' }, h('h1', null, 'Verify your email'), h('p', { class: 'form-message error', role: 'alert' }, err instanceof Error ? err.message : String(err)), next);
  }
}
