import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import { ApiError, validationError } from '../../core/errors.js';
import { readParams } from '../options/read-params.js';
import { createCompany, getCompany } from '../accounts/companies.js';
import { passwordResetLink } from './account-email.js';
import { emailParam } from './auth-params.js';
import { issueOneTimeToken } from './one-time-tokens.js';

export interface CreatedUser {
  user_id: number;
  company_id: number;
  email: string;
  roles: string[];
  /** a one-time link to set the password (which also verifies the email), on the public URL of `config` */
  login_link: string;
  expires_in_seconds: number;
}

/**
 * `shotfarm users create`: a dashboard user without a password, on a new account unless `company` is given,
 * and a one-time link to set the password. Runs in the process that holds the database (the running service
 * when there is one), so `config.publicUrl` is the URL that service answers on. 400 for an address that is
 * not one or an account that does not exist, 409 for an email that already has a user.
 */
export async function createUserWithLoginLink(db: Db, config: Config, input: { email: string; admin: boolean; company?: number; name?: string }): Promise<CreatedUser> {
  let email: string;
  try {
    email = readParams({ email: emailParam }, { email: [input.email] }, ['email']).email as string;
  } catch {
    const message = `${JSON.stringify(input.email)} is not an email address`;
    throw validationError({ email: [message] }, message);
  }
  if (input.company !== undefined && !(await getCompany(db, input.company))) throw validationError({ company: [`no account ${input.company}`] }, `no account ${input.company}`);
  if (await db('users').where({ email }).first('id')) throw new ApiError(409, 'CONFLICT', `${email} already has a user (the dashboard's "forgot password" sends it a link)`);
  const roles = input.admin ? ['user', 'admin'] : ['user'];
  const ttl = config.auth.resetTokenTtlSeconds;
  const created = await db.transaction(async (trx) => {
    const companyId = input.company ?? (await createCompany(trx, { name: (input.name ?? email).slice(0, 200), email }, 0, 'cli: users create')).id;
    // No password: the user sets one through the reset link, which also verifies the email.
    const [user] = await trx('users')
      .insert({ company_id: companyId, email, name: input.name ?? null, roles: JSON.stringify(roles), email_verified: false, signup_provider: 'cli' })
      .returning('id');
    const userId = Number(user.id);
    return { userId, companyId, token: await issueOneTimeToken(trx, userId, 'reset_password', ttl) };
  });
  return { user_id: created.userId, company_id: created.companyId, email, roles, login_link: passwordResetLink(config.publicUrl, created.token), expires_in_seconds: ttl };
}
