import type { Knex } from 'knex';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import { fieldError, forbidden, invalidApiKey } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { generateApiKey, insertApiKey } from '../accounts/api-keys.js';
import { createCompany } from '../accounts/companies.js';
import { claimFreeGrant } from '../accounts/free-grants.js';
import type { JwtService } from '../accounts/jwt.js';
import { mailboxOf } from '../accounts/mailbox.js';
import type { Caller } from '../http/state.js';
import { passwordResetEmail, verificationEmail } from './account-email.js';
import type { CaptchaVerifier } from './captcha.js';
import type { LoginLimiter } from './login-limiter.js';
import type { Mailer, OutgoingMail } from '../../core/contracts/mailer.js';
import { consumeOneTimeToken, issueOneTimeToken, retireOneTimeTokens } from './one-time-tokens.js';
import { hashPassword, passwordMatches } from './passwords.js';
import { revokeSessions } from './session-revocations.js';
import { sessionCaller } from './session-token.js';
import type { SignupLimiter } from './signup-limiter.js';
import { loadUserSession, type UserSession } from './user-session.js';

/** The spec's Login response, exactly. */
export interface LoginResponse {
  token: string;
  user: UserSession;
}
/**
 * GET /auth/session: the cookie's session as the dashboard needs it, after login or a reload; `csrf_token`
 * is the proof it sends with the cookie (api/auth/session-cookie.ts).
 */
export interface CookieSession {
  user: UserSession & { impersonated_by: number | null };
  csrf_token: string;
}
export interface SignupResponse extends LoginResponse {
  api_key: { key: string; name: string | null };
}

/** The name of the API key every signup starts with. */
const FIRST_KEY_NAME = 'Default key';
/** companies.name holds 200 characters; an email used as the account's name is cut to fit. */
const MAX_COMPANY_NAME = 200;

/** Postgres' unique_violation: two signups raced with one email. */
const isUniqueViolation = (err: unknown): boolean => (err as { code?: string } | null)?.code === '23505';

export interface AuthServiceDeps {
  db: Db;
  log: Logger;
  jwt: JwtService;
  config: Config;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  loginLimiter: LoginLimiter;
  signupLimiter: SignupLimiter;
}

/** Signup, login, logout, and the password and email flows. Inputs arrive validated by the routes. */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /** Whether signup and the password flows need a captcha_token (production). */
  get captchaRequired(): boolean {
    return this.deps.captcha.isRequired;
  }

  /**
   * Creates the account (company), its user (role `user`, email unverified) and a first API key, shown
   * once. The account has no credits until the email is verified (verifyEmail); the client address may
   * open SHOTFARM_SIGNUPS_PER_ADDRESS_PER_DAY accounts a day (429 after).
   */
  async signup(input: { email: string; password: string; name?: string; company?: string; captcha_token?: string }, address: string): Promise<SignupResponse> {
    const { db, config, signupLimiter } = this.deps;
    await this.deps.captcha.check(input.captcha_token, address);
    if (await db('users').where({ email: input.email }).first('id')) throw fieldError('email', 'is already registered: log in, or reset the password');
    await signupLimiter.assertAllowed(address);
    const passwordHash = await hashPassword(input.password);
    const key = generateApiKey();
    let created: { userId: number; companyId: number; verifyToken: string };
    try {
      created = await db.transaction(async (trx) => {
        await signupLimiter.count(trx, address);
        const companyName = (input.company ?? input.name ?? input.email).slice(0, MAX_COMPANY_NAME);
        const company = await createCompany(trx, { name: companyName, email: input.email, signupMailbox: mailboxOf(input.email) }, 0);
        const [user] = await trx('users')
          .insert({
            company_id: company.id,
            email: input.email,
            password_hash: passwordHash,
            name: input.name ?? null,
            roles: JSON.stringify(['user']),
            email_verified: false,
            signup_provider: 'email',
          })
          .returning('id');
        const userId = Number(user.id);
        await insertApiKey(trx, company.id, key, FIRST_KEY_NAME, userId);
        const verifyToken = await issueOneTimeToken(trx, userId, 'verify_email', config.auth.verifyTokenTtlSeconds);
        return { userId, companyId: company.id, verifyToken };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('email', 'is already registered: log in, or reset the password');
      throw err;
    }
    await this.sendQuietly(verificationEmail(config.publicUrl, { id: created.userId, email: input.email }, created.verifyToken, config.auth.verifyTokenTtlSeconds));
    this.deps.log.info({ user_id: created.userId, company_id: created.companyId }, 'signup');
    return { ...(await this.session(created.userId)), api_key: { key, name: FIRST_KEY_NAME } };
  }

  /** A session token for the right email and password; 401 otherwise (429 after too many failures). */
  async login(input: { email: string; password: string }, address: string): Promise<LoginResponse> {
    const { db, loginLimiter } = this.deps;
    await loginLimiter.attempt(input.email, address);
    const user = await db('users').where({ email: input.email }).first('id', 'password_hash');
    if (!(await passwordMatches((user?.password_hash as string | null | undefined) ?? null, input.password)) || !user) throw invalidApiKey('Invalid email or password');
    await loginLimiter.succeeded(input.email, address);
    return this.session(Number(user.id));
  }

  /**
   * Ends session tokens for good (POST /auth/logout: the cookie's, the admin session kept aside, a Bearer
   * token): every replica refuses them from now on. Anything that is no valid token is ignored.
   */
  async logout(tokens: readonly (string | null)[]): Promise<void> {
    const ended = await revokeSessions(this.deps.db, this.deps.jwt, tokens);
    if (ended > 0) this.deps.log.info({ sessions: ended }, 'logout');
  }

  /**
   * A signed-in user sets a new password with the current one. Like a reset it ends every session signed
   * before (the session version rises), this one included, and answers a fresh session. A wrong current
   * password is a 400 on `current_password`, counted by the login limiter like a failed login (a stolen
   * session must not be a way to guess the password).
   */
  async changePassword(caller: Caller, input: { current_password: string; password: string }, address: string): Promise<LoginResponse> {
    const { db, loginLimiter } = this.deps;
    if (caller.userId === null) throw forbidden('Changing a password needs a user: this credential is an account key without one');
    if (caller.impersonatedBy) throw forbidden("An admin acting as a user cannot change the user's password");
    const user = await db('users').where({ id: caller.userId }).first('email', 'password_hash');
    if (!user) throw invalidApiKey('Invalid or expired token');
    const email = String(user.email);
    await loginLimiter.attempt(email, address);
    if (!(await passwordMatches((user.password_hash as string | null) ?? null, input.current_password))) throw fieldError('current_password', 'is not your current password');
    await loginLimiter.succeeded(email, address);
    const passwordHash = await hashPassword(input.password);
    await db('users')
      .where({ id: caller.userId })
      .update({ password_hash: passwordHash, session_version: db.raw('session_version + 1') });
    this.deps.log.info({ user_id: caller.userId }, 'password changed');
    return this.session(caller.userId);
  }

  /** Emails a reset link when the address has an account. The answer is the same either way. */
  async forgotPassword(input: { email: string; captcha_token?: string }, address: string): Promise<void> {
    const { db, config } = this.deps;
    await this.deps.captcha.check(input.captcha_token, address);
    const user = await db('users').where({ email: input.email }).first('id');
    if (!user) {
      this.deps.log.info({ address }, 'password reset asked for an email without an account');
      return;
    }
    const token = await issueOneTimeToken(db, Number(user.id), 'reset_password', config.auth.resetTokenTtlSeconds);
    await this.sendQuietly(passwordResetEmail(config.publicUrl, { id: Number(user.id), email: input.email }, token, config.auth.resetTokenTtlSeconds));
  }

  /**
   * Sets a new password with a reset token (once). The reset also ends every session signed before it
   * (the session version rises), retires the user's other reset links, and verifies the email: the link
   * reached its inbox (which may take the inbox's free grant, as verifyEmail).
   */
  async resetPassword(input: { token: string; password: string; captcha_token?: string }, address: string): Promise<void> {
    await this.deps.captcha.check(input.captcha_token, address);
    const passwordHash = await hashPassword(input.password);
    const userId = await this.deps.db.transaction(async (trx) => {
      const id = await consumeOneTimeToken(trx, input.token, 'reset_password');
      await trx('users')
        .where({ id })
        .update({ password_hash: passwordHash, email_verified: true, session_version: trx.raw('session_version + 1') });
      await retireOneTimeTokens(trx, id, 'reset_password');
      await this.emailVerified(trx, id);
      return id;
    });
    const user = await this.deps.db('users').where({ id: userId }).first('email');
    if (user) await this.deps.loginLimiter.passwordReset(String(user.email));
    this.deps.log.info({ user_id: userId }, 'password reset');
  }

  /** Marks the email of the token's user verified (once); its account may now be granted credits. */
  async verifyEmail(input: { token: string }): Promise<void> {
    const userId = await this.deps.db.transaction(async (trx) => {
      const id = await consumeOneTimeToken(trx, input.token, 'verify_email');
      await trx('users').where({ id }).update({ email_verified: true });
      await this.emailVerified(trx, id);
      return id;
    });
    this.deps.log.info({ user_id: userId }, 'email verified');
  }

  /** A user proved its inbox: the account of a signup takes the inbox's free grant (and signup credits) if it is the first. */
  private async emailVerified(trx: Knex.Transaction, userId: number): Promise<void> {
    const user = await trx('users').where({ id: userId }).first('email', 'company_id');
    if (!user) return;
    const companyId = Number(user.company_id);
    if (await claimFreeGrant(trx, { companyId, email: String(user.email) }, this.deps.config.auth.signupCredits))
      this.deps.log.info({ user_id: userId, company_id: companyId }, 'free grant of the inbox taken');
  }

  /** A fresh session token and the User session of a user. */
  private async session(userId: number): Promise<LoginResponse> {
    const row = await this.deps.db('users').where({ id: userId }).first('company_id', 'session_version');
    const user = await loadUserSession(this.deps.db, userId);
    if (!row || !user) throw new Error(`user ${userId} vanished while signing in`);
    const token = await this.deps.jwt.sign({ userId, companyId: Number(row.company_id), impersonatedBy: null, sessionVersion: Number(row.session_version) });
    return { token, user };
  }

  /** The User session and CSRF proof of a session cookie's token; null when the token no longer counts. */
  async cookieSession(token: string): Promise<CookieSession | null> {
    const caller = await sessionCaller(this.deps.db, this.deps.jwt, token);
    if (caller === null || caller.userId === null) return null;
    const user = await loadUserSession(this.deps.db, caller.userId);
    if (!user) return null;
    return { user: { ...user, impersonated_by: caller.impersonatedBy ?? null }, csrf_token: this.deps.jwt.csrfToken(token) };
  }

  /** The signer of the session tokens (the routes set cookies that live as long as the token). */
  get jwt(): JwtService {
    return this.deps.jwt;
  }

  /** The account is made even when its email cannot be queued: the log says so, and the outbox can be read. */
  private async sendQuietly(mail: OutgoingMail): Promise<void> {
    try {
      await this.deps.mailer.send(mail);
    } catch (err) {
      this.deps.log.error({ err, to: mail.to, purpose: mail.purpose }, 'account email could not be queued');
    }
  }
}
