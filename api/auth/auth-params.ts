import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, idParam, MAX_PAGE_SIZE } from '../options/endpoint-params.js';
import { custom, int, oneOf, text, type Param, type ReadResult } from '../options/param-kinds.js';
import type { QueryValue } from '../options/query-input.js';

/**
 * The parameters of the auth, API key and admin-user operations: they validate requests and make their
 * OpenAPI entries.
 */

/** The one string of a parameter given once, or the message saying why not. */
function oneString(raw: QueryValue): ReadResult<string> {
  if (!Array.isArray(raw) || raw.length !== 1 || typeof raw[0] !== 'string') return { ok: false, messages: ['must be given once, as text'] };
  return { ok: true, value: raw[0] };
}

/** 254 characters is the longest address SMTP can carry (RFC 5321's 256-character path less its brackets). */
const MAX_EMAIL = 254;
const emailSchema = z.email().max(MAX_EMAIL);

/** An email address, trimmed and lower-cased: one account per address, however it is typed. */
export const emailParam = custom(emailSchema.describe('email address'), false, (raw) => {
  const s = oneString(raw);
  if (!s.ok) return s;
  const email = s.value.trim().toLowerCase();
  return emailSchema.safeParse(email).success ? { ok: true, value: email } : { ok: false, messages: [`must be an email address of at most ${MAX_EMAIL} characters`] };
});

/**
 * 8 characters is NIST SP 800-63B's minimum for a chosen password; 256 bounds the work one request can
 * ask of argon2 while leaving room for any passphrase. Any character but NUL is allowed, spaces included.
 */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 256;

function passwordParam(min: number): Param<string> {
  const schema = z
    .string()
    .min(min)
    .max(MAX_PASSWORD)
    .regex(/^[^\x00]*$/);
  return custom(schema.describe(`password (${min} to ${MAX_PASSWORD} characters)`), false, (raw) => {
    const s = oneString(raw);
    if (!s.ok) return s;
    return schema.safeParse(s.value).success ? { ok: true, value: s.value } : { ok: false, messages: [`must be ${min} to ${MAX_PASSWORD} characters without NUL`] };
  });
}

/** A new password must meet the minimum; login checks any password an account might have. */
const newPassword = passwordParam(MIN_PASSWORD);
const anyPassword = passwordParam(1);

/** Turnstile tokens are at most 2048 characters, hCaptcha's shorter. */
const captchaToken = text(2048, 'captcha response token (required in production)');
/** Our one-time tokens are 43 characters; 128 leaves room without inviting large input. */
const oneTimeToken = text(128, "the token of the email's link");

export const SIGNUP_PARAMS = {
  email: emailParam,
  password: newPassword,
  // 200 characters: the users.name and companies.name columns.
  name: text(200, 'your name'),
  company: text(200, 'name of the account (default: your name, or your email)'),
  captcha_token: captchaToken,
};

export const LOGIN_PARAMS = { email: emailParam, password: anyPassword };

export const FORGOT_PASSWORD_PARAMS = { email: emailParam, captcha_token: captchaToken };

export const RESET_PASSWORD_PARAMS = { token: oneTimeToken, password: newPassword, captcha_token: captchaToken };

export const VERIFY_EMAIL_PARAMS = { token: oneTimeToken };

export const CHANGE_PASSWORD_PARAMS = { current_password: anyPassword, password: newPassword };

// 200 characters: the api_keys.name column.
export const KEY_CREATE_PARAMS = { name: text(200, 'a name to recognise the key by') };
export const KEY_ID_PARAMS = { id: idParam };
/** POST /key/sign-link: 16 KiB of render parameters is more than any browser keeps in an <img src> (about 8 KiB in practice). */
export const KEY_SIGN_LINK_PARAMS = {
  id: idParam,
  query: text(16384, 'the render parameters as a query string (url=…&width=…), signed as given'),
  expires: int(1, 253402300799, 'unix seconds after which the link answers 410 (optional: a link without it works until the secret is rotated)'),
};

const paging = {
  limit: int(1, MAX_PAGE_SIZE, `page size (default ${DEFAULT_PAGE_SIZE})`),
  offset: int(0, 1_000_000_000, 'records to skip'),
};

/** A credit change is a whole number of credits, not zero; a billion either way is beyond any real grant. */
const MAX_CREDIT_CHANGE = 1_000_000_000;
const creditChange = int(-MAX_CREDIT_CHANGE, MAX_CREDIT_CHANGE, 'credits to grant (positive) or remove (negative)');
const amountParam = custom(creditChange.schema, false, (raw) => {
  const read = creditChange.read(raw);
  if (read.ok && read.value === 0) return { ok: false, messages: ['must not be 0'] };
  return read.ok ? read : { ok: false, messages: [`must be a whole number from -${MAX_CREDIT_CHANGE} to ${MAX_CREDIT_CHANGE}, not 0`] };
});

export const IMPERSONATE_PARAMS = { user_id: idParam };
export const USERS_PARAMS = { ...paging, email: text(254, 'only users whose email contains this text') };
// 150 characters leave room in the ledger's 200 for the `admin:<id>: ` prefix.
export const CREDITS_PARAMS = { company_id: idParam, amount: amountParam, reason: text(150, 'why (kept in the ledger)') };
export const OUTBOX_PARAMS = { ...paging, status: oneOf(['logged', 'pending', 'sent', 'failed'] as const, 'only messages in this status') };
