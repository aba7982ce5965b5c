import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { fieldError } from '../../core/errors.js';

/** What a one-time token is for; a token of one purpose is never accepted for the other. */
export type TokenPurpose = 'verify_email' | 'reset_password';

/** 32 random bytes: 256 bits, far beyond guessing, 43 characters in a link. */
const TOKEN_BYTES = 32;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Creates a token for a user and returns it; only its hash is stored. */
export async function issueOneTimeToken(db: Knex, userId: number, purpose: TokenPurpose, ttlSeconds: number): Promise<string> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  await db('auth_tokens').insert({ user_id: userId, purpose, token_hash: hashToken(token), expires_at: new Date(Date.now() + ttlSeconds * 1000) });
  return token;
}

/**
 * Marks a token used and returns its user. Call it in the transaction that applies the token's effect:
 * if that fails, the token stays unused. The conditional update is the check, so two requests racing
 * with one token cannot both pass. An unknown, used or expired token is a 400 on `token` saying which.
 */
export async function consumeOneTimeToken(trx: Knex.Transaction, token: string, purpose: TokenPurpose): Promise<number> {
  const now = new Date();
  const tokenHash = hashToken(token);
  const [row] = await trx('auth_tokens').where({ token_hash: tokenHash, purpose }).whereNull('used_at').where('expires_at', '>', now).update({ used_at: now }).returning('user_id');
  if (row) return Number(row.user_id);
  const known = await trx('auth_tokens').where({ token_hash: tokenHash, purpose }).first('used_at');
  if (!known) throw fieldError('token', 'is not a valid token: use the link of the latest email');
  if (known.used_at) throw fieldError('token', 'has already been used');
  throw fieldError('token', 'has expired: ask for a new email');
}

/** Ends a user's other unused tokens of a purpose (after a password reset, older reset links stop working). */
export async function retireOneTimeTokens(trx: Knex.Transaction, userId: number, purpose: TokenPurpose): Promise<void> {
  await trx('auth_tokens').where({ user_id: userId, purpose }).whereNull('used_at').update({ used_at: new Date() });
}
