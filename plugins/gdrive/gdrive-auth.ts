import { createHash } from 'node:crypto';
import { auth } from '@googleapis/drive';
import type { GdriveCredentials } from './gdrive-settings.js';

/**
 * Authentication for the gdrive app, with google-auth-library's own clients (through @googleapis/drive's
 * `auth`, so the app depends on one package):
 *  - OAuth: `OAuth2Client` with `endpoints.oauth2TokenUrl` set to the configured token URL
 *    (SHOTFARM_GOOGLE_TOKEN_URL): the refresh (`grant_type=refresh_token`, client_id and client_secret in
 *    the form) is posted there.
 *  - Service account: the `JWT` client with the Drive scope. It signs an RS256 assertion and posts it with
 *    `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`. google-auth-library 10 does this through
 *    gtoken, which posts to a hard-coded https://oauth2.googleapis.com/token and ignores both the key's
 *    `token_uri` and any option. Decision: the CONFIGURED token URL wins over the key's `token_uri` (and over
 *    the library's constant). A request interceptor on the client's transporter sends every request that
 *    carries a `grant_type` to it, whatever URL the library chose, so an air-gapped gateway (or a test
 *    server) receives the token requests and nothing goes to Google behind the operator's back (the OAuth
 *    refresh would land there too if a later library version stopped honouring `oauth2TokenUrl`). The
 *    assertion's `aud` claim is left as the library makes it (Google's token URL): a gateway that forwards
 *    to Google needs exactly that, since Google checks the audience against its own endpoint.
 * The same interceptor turns the library's retries off for every request the client makes (the token
 * requests come with a retry config of their own; the runner retries whole runs) and gives the requests
 * that carry no signal (token requests) the run's signal, so an abort also stops a hanging token request.
 *
 * Access tokens are cached in this process per credential and token URL (a batch would otherwise ask for
 * one token per screenshot) until 5 minutes before they expire; `forget()` drops a token Drive refused.
 */

/** Full Drive access: uploading into a folder the app did not create needs it (drive.file would not do). */
export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive';

/** A cached token is used while it has at least this long to live. */
const CACHE_MARGIN_MS = 5 * 60_000;
const CACHE_MAX_ENTRIES = 500;

export type DriveAuthClient = InstanceType<typeof auth.OAuth2>;

export interface DriveSession {
  client: DriveAuthClient;
  /** True when the access token came from the cache (Drive refusing it may just mean it was revoked since). */
  fromCache: boolean;
  /** Drops the cached token (after Drive refused it), so the next run asks for a new one. */
  forget(): void;
}

interface CachedToken {
  accessToken: string;
  expiryDate: number;
}

const tokenCache = new Map<string, CachedToken>();

/** Empties the token cache (tests use it to start from a known state). */
export function clearDriveTokenCache(): void {
  tokenCache.clear();
}

/** The client for `credentials`, wired to `tokenUrl` and `signal`, with no retries of its own. */
export function createAuthClient(credentials: GdriveCredentials, tokenUrl: string, signal: AbortSignal): DriveAuthClient {
  const client: DriveAuthClient =
    credentials.kind === 'oauth'
      ? new auth.OAuth2({ clientId: credentials.clientId, clientSecret: credentials.clientSecret, endpoints: { oauth2TokenUrl: tokenUrl } })
      : new auth.JWT({ email: credentials.key.clientEmail, key: credentials.key.privateKey, keyId: credentials.key.privateKeyId, scopes: [DRIVE_SCOPE] });
  if (credentials.kind === 'oauth') client.setCredentials({ refresh_token: credentials.refreshToken });
  client.transporter.interceptors.request.add({
    resolved: async (opts) => {
      // Token grants (jwt-bearer; the refresh grant is already addressed there) go to the configured URL.
      if (grantTypeOf(opts.data) !== null) opts.url = new URL(tokenUrl);
      opts.retry = false;
      delete opts.retryConfig;
      opts.signal ??= signal;
      return opts;
    },
  });
  return client;
}

/**
 * A client with a usable access token: the cached one, else a new one from the token endpoint (which may
 * reject with the token endpoint's error: gdrive-errors.ts tells them apart by URL).
 */
export async function openDriveSession(credentials: GdriveCredentials, tokenUrl: string, signal: AbortSignal): Promise<DriveSession> {
  const client = createAuthClient(credentials, tokenUrl, signal);
  const key = cacheKey(credentials, tokenUrl);
  const forget = (): void => {
    tokenCache.delete(key);
  };
  const cached = tokenCache.get(key);
  if (cached && cached.expiryDate - Date.now() > CACHE_MARGIN_MS) {
    // Keep what the client set (the OAuth refresh token; the JWT client's placeholder) so it can still refresh.
    client.setCredentials({ ...client.credentials, access_token: cached.accessToken, expiry_date: cached.expiryDate });
    return { client, fromCache: true, forget };
  }
  await client.getAccessToken();
  const { access_token: accessToken, expiry_date: expiryDate } = client.credentials;
  if (accessToken && typeof expiryDate === 'number') {
    if (tokenCache.size >= CACHE_MAX_ENTRIES) tokenCache.delete(tokenCache.keys().next().value as string);
    tokenCache.set(key, { accessToken, expiryDate });
  }
  return { client, fromCache: false, forget };
}

/** The `grant_type` of a token request's form, whichever shape the library gives it (URLSearchParams today). */
function grantTypeOf(data: unknown): string | null {
  if (data instanceof URLSearchParams) return data.get('grant_type');
  if (typeof data === 'string') return /(?:^|&)grant_type=/.test(data) ? new URLSearchParams(data).get('grant_type') : null;
  if (data !== null && typeof data === 'object' && typeof (data as { grant_type?: unknown }).grant_type === 'string') return (data as { grant_type: string }).grant_type;
  return null;
}

/** A digest, so the cache's keys hold no secret in clear. */
function cacheKey(credentials: GdriveCredentials, tokenUrl: string): string {
  const parts =
    credentials.kind === 'oauth' ? ['oauth', credentials.clientId, credentials.clientSecret, credentials.refreshToken] : ['service_account', credentials.key.clientEmail, credentials.key.privateKey];
  return createHash('sha256')
    .update(JSON.stringify([tokenUrl, ...parts]))
    .digest('hex');
}
