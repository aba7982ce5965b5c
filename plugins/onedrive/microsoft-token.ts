import { createHash } from 'node:crypto';
import { AppRunError } from '../contract.js';
import { abortedError } from './onedrive-errors.js';

/**
 * Access tokens for Microsoft Graph from the Microsoft identity platform (v2.0 token endpoint):
 * `POST <login>/<tenant>/oauth2/v2.0/token`, form-encoded, either
 *  - app-only: grant_type=client_credentials with client_id, client_secret and scope
 *    `https://graph.microsoft.com/.default` (the application permissions an admin granted), or
 *  - delegated: grant_type=refresh_token with client_id, refresh_token (+ client_secret for confidential
 *    clients) and scope `https://graph.microsoft.com/.default offline_access` (what the user consented to).
 * The identity platform rotates refresh tokens; the one in the settings stays usable until it expires
 * (about 90 days without use) or is revoked, so the rotated one is not kept.
 */

export const GRAPH_DEFAULT_SCOPE = 'https://graph.microsoft.com/.default';

export interface TokenCredentials {
  loginUrl: string;
  tenant: string;
  clientId: string;
  clientSecret?: string;
  /** Present: the delegated refresh-token grant; absent: app-only client credentials. */
  refreshToken?: string;
}

export interface AccessToken {
  value: string;
  /** Epoch milliseconds after which it must not be used (the token's lifetime less a safety margin). */
  expiresAt: number;
}

/** Tokens are used no later than this before their stated expiry (clock skew, a long upload starting). */
const EXPIRY_MARGIN_MS = 5 * 60_000;

/** Token endpoint errors that another attempt cannot fix: wrong client, secret, grant, tenant or scope. */
const PERMANENT_TOKEN_ERRORS = new Set([
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'invalid_request',
  'invalid_scope',
  'unsupported_grant_type',
  'consent_required',
  'interaction_required',
]);

export function tokenEndpoint(loginUrl: string, tenant: string): string {
  return `${loginUrl.replace(/\/+$/, '')}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`;
}

/** One token request. Failures are AppRunErrors: retryable for 429, 5xx and network errors, not for refusals. */
export async function requestMicrosoftToken(credentials: TokenCredentials, signal: AbortSignal): Promise<AccessToken> {
  const form = new URLSearchParams({ client_id: credentials.clientId });
  if (credentials.refreshToken !== undefined) {
    form.set('grant_type', 'refresh_token');
    form.set('refresh_token', credentials.refreshToken);
    form.set('scope', `${GRAPH_DEFAULT_SCOPE} offline_access`);
  } else {
    form.set('grant_type', 'client_credentials');
    form.set('scope', GRAPH_DEFAULT_SCOPE);
  }
  if (credentials.clientSecret !== undefined) form.set('client_secret', credentials.clientSecret);

  let response: Response;
  try {
    response = await fetch(tokenEndpoint(credentials.loginUrl, credentials.tenant), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw abortedError(signal);
    throw new AppRunError(`Microsoft sign-in could not be reached: ${(error as Error).message}`, { retryable: true, cause: error });
  }
  const text = await response.text().catch(() => '');
  if (signal.aborted) throw abortedError(signal);
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: judged by the status alone
  }

  if (response.ok) {
    const value = body.access_token;
    const lifetime = Number(body.expires_in);
    if (typeof value !== 'string' || value === '') throw new AppRunError('Microsoft sign-in answered without an access token', { retryable: true });
    const seconds = Number.isFinite(lifetime) && lifetime > 0 ? lifetime : 3600;
    return { value, expiresAt: Date.now() + Math.max(seconds * 1000 - EXPIRY_MARGIN_MS, seconds * 500) };
  }

  const code = typeof body.error === 'string' ? body.error : '';
  // error_description starts with the AADSTS code and its text; the trace and correlation ids follow.
  const description = typeof body.error_description === 'string' ? (body.error_description.split(/\r?\n/)[0]?.trim() ?? '') : '';
  const why = [code, description].filter((s) => s !== '').join(': ') || `HTTP ${response.status}`;
  const grant = credentials.refreshToken !== undefined ? 'the refresh token' : 'the client credentials';
  const retryable = response.status === 408 || response.status === 429 || response.status >= 500 ? !PERMANENT_TOKEN_ERRORS.has(code) : false;
  const hint = code === 'invalid_client' ? ' (check client_id and client_secret)' : code === 'invalid_grant' ? ' (the refresh token is expired or revoked: sign in again and save a new one)' : '';
  throw new AppRunError(`Microsoft sign-in refused ${grant} (HTTP ${response.status}) ${why}${hint}`, { retryable });
}

/**
 * Tokens kept per credentials (hashed: no secret is a map key) so that the runs of one app configuration
 * share one token until it nears expiry, instead of asking the identity platform once per screenshot.
 */
export class TokenCache {
  private readonly tokens = new Map<string, AccessToken>();
  constructor(private readonly maxEntries = 200) {}

  static keyOf(credentials: TokenCredentials): string {
    const { loginUrl, tenant, clientId, clientSecret = '', refreshToken = '' } = credentials;
    return createHash('sha256')
      .update(JSON.stringify([loginUrl, tenant, clientId, clientSecret, refreshToken]))
      .digest('hex');
  }

  /** A cached token still valid, or a new one (then cached). `fresh`: whether it was just issued. */
  async get(credentials: TokenCredentials, signal: AbortSignal): Promise<{ token: string; fresh: boolean }> {
    const key = TokenCache.keyOf(credentials);
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt > Date.now()) return { token: cached.value, fresh: false };
    const token = await requestMicrosoftToken(credentials, signal);
    this.tokens.delete(key);
    this.tokens.set(key, token);
    while (this.tokens.size > this.maxEntries) this.tokens.delete(this.tokens.keys().next().value as string);
    return { token: token.value, fresh: true };
  }

  /** Forgets the token of these credentials (Graph refused it: revoked, or the grant changed). */
  forget(credentials: TokenCredentials): void {
    this.tokens.delete(TokenCache.keyOf(credentials));
  }
}
