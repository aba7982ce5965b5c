import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/connect.js';
import type { JwtService } from '../accounts/jwt.js';

/** How a revoked token is kept and looked up: its SHA-256, 64 hex characters whatever its length. */
export const sessionTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The condition "this token was not revoked", for the statement that reads the token's user (sessionCaller):
 * the check costs no round trip of its own, one primary-key probe in the same query.
 */
export function notRevoked(db: Knex, token: string): (this: Knex.QueryBuilder) => void {
  const hash = sessionTokenHash(token);
  return function (this: Knex.QueryBuilder) {
    this.select(db.raw('1')).from('revoked_sessions').where('token_hash', hash);
  };
}

/**
 * Ends session tokens (a logout) in the database, so every API replica refuses them from the next request
 * on. Only tokens this service signed and that are still valid are kept, each until it would have expired
 * anyway (rows past that are deleted here): anything else is refused already, and nobody can fill the
 * table with made-up tokens.
 */
export async function revokeSessions(db: Db, jwt: JwtService, tokens: readonly (string | null | undefined)[]): Promise<number> {
  const rows: { token_hash: string; expires_at: Date }[] = [];
  for (const token of new Set(tokens)) {
    if (!token || !(await jwt.verify(token))) continue;
    rows.push({ token_hash: sessionTokenHash(token), expires_at: new Date(jwt.expiresAt(token) * 1000) });
  }
  await db('revoked_sessions').where('expires_at', '<', new Date()).delete();
  if (rows.length > 0) await db('revoked_sessions').insert(rows).onConflict('token_hash').ignore();
  return rows.length;
}
