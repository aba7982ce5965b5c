import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Db } from '../../api/db/connect.js';
import { call, type TestApi } from './test-api.js';

export type Answer = { status: number; body: any; headers: Headers };

/** A POST with a JSON body (and extra headers). */
export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

export const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

/** An address no other test uses. */
export const uniqueEmail = (tag = 'user'): string => `${tag}-${randomBytes(5).toString('hex')}@example.test`;

export const PASSWORD = 'correct horse battery staple';

/** Asserts the spec's error envelope (with a request id) and returns the body. */
export function expectEnvelope(res: Answer, status: number, code: string): any {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.include({ success: false, code });
  expect(res.body.error).to.be.a('string').and.not.equal('');
  expect(res.body.details?.request_id).to.be.a('string').and.not.equal('');
  return res.body;
}

/** Signs up through the API; returns the answer's data (token, user, api_key). */
export async function signup(api: TestApi, body: Record<string, unknown> = {}): Promise<{ token: string; user: any; api_key: { key: string; name: string | null } }> {
  const res = await call(api.url, '/auth/signup', json({ email: uniqueEmail(), password: PASSWORD, ...body }));
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data;
}

/** A signed-up user made admin in the database (roles are read on every request). */
export async function signupAdmin(api: TestApi): Promise<{ token: string; user: any; api_key: { key: string } }> {
  const admin = await signup(api, { email: uniqueEmail('admin') });
  await api.database
    .db('users')
    .where({ id: admin.user.id })
    .update({ roles: JSON.stringify(['user', 'admin']) });
  return admin;
}

/** The token of the newest outbox message of this purpose to this address (from its `Token:` line). */
export async function outboxToken(db: Db, to: string, purpose: 'verify_email' | 'reset_password'): Promise<string> {
  const row = await db('email_outbox').where({ to_address: to, purpose }).orderBy('id', 'desc').first('body_text');
  expect(row, `no ${purpose} message to ${to} in the outbox`).to.not.equal(undefined);
  const token = /^Token: (\S+)$/m.exec(String(row.body_text))?.[1];
  expect(token, String(row.body_text)).to.be.a('string');
  return token as string;
}

/**
 * Verifies an address through the link of its verification email, as its owner would: an account opened by
 * signup gets its credits (SHOTFARM_SIGNUP_CREDITS) only then.
 */
export async function verifyEmail(api: TestApi, email: string): Promise<void> {
  const res = await call(api.url, '/auth/verify-email', json({ token: await outboxToken(api.database.db, email, 'verify_email') }));
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}
