import type { Operation } from '../routes/openapi.js';
import {
  CREDITS_PARAMS, FORGOT_PASSWORD_PARAMS, IMPERSONATE_PARAMS, KEY_CREATE_PARAMS, KEY_ID_PARAMS, LOGIN_PARAMS, OUTBOX_PARAMS,
  RESET_PASSWORD_PARAMS, SIGNUP_PARAMS, USERS_PARAMS, VERIFY_EMAIL_PARAMS,
} from './auth-params.js';

/** The OpenAPI entries of the user, session, API key and admin-user operations, from the tables that validate them. */
export const USER_OPERATIONS: Operation[] = [
  { method: 'post', path: '/auth/signup', summary: 'Create an account, its user and a first API key (JSON body); captcha_token required in production', params: SIGNUP_PARAMS, required: ['email', 'password'], public: true },
  { method: 'post', path: '/auth/login', summary: 'A session token (JWT) and the User session (JSON body); also sets them as the HttpOnly session cookie', params: LOGIN_PARAMS, required: ['email', 'password'], public: true },
  { method: 'get', path: '/auth/session', summary: 'The session cookie\'s {user, csrf_token}, or null without a valid one', public: true },
  { method: 'post', path: '/auth/logout', summary: 'Clear the session cookie (and an impersonation kept aside)', public: true },
  { method: 'post', path: '/auth/forgot-password', summary: 'Email a password-reset link; the answer is {ok: true} whether or not the email has an account', params: FORGOT_PASSWORD_PARAMS, required: ['email'], public: true },
  { method: 'post', path: '/auth/reset-password', summary: 'Set a new password with the token of the reset email (once); ends older sessions', params: RESET_PASSWORD_PARAMS, required: ['token', 'password'], public: true },
  { method: 'post', path: '/auth/verify-email', summary: 'Verify the email with the token of the verification email (once)', params: VERIFY_EMAIL_PARAMS, required: ['token'], public: true },
  { method: 'get', path: '/auth/me', summary: 'The User session of the caller, with impersonated_by' },
  { method: 'post', path: '/auth/impersonation/end', summary: 'Back to the admin\'s own cookie session after acting as another user in the dashboard' },
  { method: 'get', path: '/key/list', summary: 'The account\'s API keys (never their secrets)' },
  { method: 'post', path: '/key/create', summary: 'A new API key: its secret is in this answer only', params: KEY_CREATE_PARAMS },
  { method: 'post', path: '/key/delete', summary: 'Revoke an API key (not the one the request uses)', params: KEY_ID_PARAMS, required: ['id'] },
  { method: 'post', path: '/admin/impersonate', summary: 'Admin: a token acting as another user, carrying impersonated_by', params: IMPERSONATE_PARAMS, required: ['user_id'] },
  { method: 'get', path: '/admin/users', summary: 'Admin: users with their account, roles and balance, newest first', params: USERS_PARAMS },
  { method: 'post', path: '/admin/credits', summary: 'Admin: grant or remove credits of an account through the ledger', params: CREDITS_PARAMS, required: ['company_id', 'amount', 'reason'] },
  { method: 'get', path: '/admin/outbox', summary: 'Admin: account email kept in the outbox, newest first', params: OUTBOX_PARAMS },
];
