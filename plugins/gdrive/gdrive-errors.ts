import { AppRunError } from '../contract.js';

/**
 * What a failed Google call becomes for the runner. The clients are built with no retries of their own
 * (gdrive-auth.ts, gdrive-app.ts), so every failure reaches here at once. Errors are gaxios errors
 * (`response.status`, `response.data`, `config.url`); they are read by shape, not by class, so a second copy
 * of gaxios in node_modules changes nothing.
 *
 * The token endpoint (told apart by the request's URL):
 *  - 400 / 401 / 403 (invalid_grant: a revoked refresh token, a deleted service account key, a bad
 *    signature; invalid_client: a wrong client ID or secret; unauthorized_client…): not retryable.
 *  - 408 / 429 / 5xx and network failures: retryable. Any other status: not retryable (a wrong
 *    SHOTFARM_GOOGLE_TOKEN_URL answering 404, say).
 * The Drive API:
 *  - 401: not retryable, unless the access token came from the cache (it may have been revoked since it
 *    was issued: the cache forgets it and another attempt gets a new one).
 *  - 403 with a rate-limit reason (userRateLimitExceeded, rateLimitExceeded, sharingRateLimitExceeded):
 *    retryable; any other 403 (no write access to the folder, storageQuotaExceeded, dailyLimitExceeded…):
 *    not retryable.
 *  - 404 (the folder does not exist or is not shared with the account), 400 and other 4xx: not retryable.
 *  - 408 / 429 / 5xx and network failures (refused, reset, DNS, timeouts): retryable.
 *  - An aborted run rejects with the signal's own reason (the runner knows why it aborted).
 * Messages never contain a secret: they quote Google's `error` / `error_description` / `reason` and
 * `message`, and the folder ID and account e-mail the user gave. The `cause` is a plain summary of the
 * failed request (status, URL, Google's answer, error code), not the gaxios error: gaxios redacts
 * `grant_type`, `assertion` and `*secret*` from a failed request's form but not `refresh_token`.
 */

/** 403 reasons that mean "slow down", not "you may not". */
export const RATE_LIMIT_REASONS: ReadonlySet<string> = new Set(['userRateLimitExceeded', 'rateLimitExceeded', 'sharingRateLimitExceeded']);

export interface ErrorContext {
  signal: AbortSignal;
  tokenUrl: string;
  /** Who uploads: the service account's e-mail, or "the OAuth user". */
  account: string;
  folderId: string | undefined;
  supportsAllDrives: boolean;
  /** Whether the access token in use came from the cache. */
  tokenFromCache: boolean;
  /** Called when Drive refuses the access token, so the cache forgets it. */
  forgetToken(): void;
}

interface HttpError {
  status: number | undefined;
  data: unknown;
  url: string | undefined;
  code: unknown;
  message: string;
}

/** The error to throw from `run` for a failed Google call. */
export function toAppRunError(error: unknown, where: ErrorContext): unknown {
  if (where.signal.aborted) return where.signal.reason;
  if (error instanceof AppRunError) return error;
  const e = httpErrorOf(error);
  if (e.url !== undefined && sameUrl(e.url, where.tokenUrl)) return tokenError(e, where);
  return driveError(e, where);
}

function tokenError(e: HttpError, where: ErrorContext): AppRunError {
  const cause = e;
  if (e.status === undefined) return new AppRunError(`could not reach Google's token endpoint ${where.tokenUrl}: ${networkReason(e)}`, { retryable: true, cause });
  const data = record(e.data);
  const what = [text(data.error), text(data.error_description)].filter(Boolean).join(': ') || `HTTP ${e.status}`;
  if (e.status === 400 || e.status === 401 || e.status === 403) {
    const hint =
      where.account === OAUTH_ACCOUNT
        ? 'check client_id and client_secret; a refresh token that was revoked or has expired has to be granted again'
        : `check service_account_json: the key of ${where.account} may have been deleted or disabled`;
    return new AppRunError(`Google refused the credentials (${what}): ${hint}`, { retryable: false, cause });
  }
  if (isTransient(e.status)) return new AppRunError(`Google's token endpoint answered HTTP ${e.status} (${what})`, { retryable: true, cause });
  return new AppRunError(`Google's token endpoint ${where.tokenUrl} answered HTTP ${e.status} (${what}): check SHOTFARM_GOOGLE_TOKEN_URL`, { retryable: false, cause });
}

/** How settings name the uploader when it is not a service account. */
export const OAUTH_ACCOUNT = 'the OAuth user';

function driveError(e: HttpError, where: ErrorContext): AppRunError {
  const cause = e;
  if (e.status === undefined) return new AppRunError(`could not reach Google Drive: ${networkReason(e)}`, { retryable: true, cause });
  const { reason, message } = driveErrorDetail(e);
  const what = [reason, message].filter(Boolean).join(': ') || `HTTP ${e.status}`;
  const folder = where.folderId === undefined ? 'the root of My Drive' : `folder ${where.folderId}`;
  switch (e.status) {
    case 401:
      if (where.tokenFromCache) {
        where.forgetToken();
        return new AppRunError(`Google Drive refused a cached access token (${what}); the next attempt gets a new one`, { retryable: true, cause });
      }
      return new AppRunError(`Google Drive refused the access token (${what}): check the credentials`, { retryable: false, cause });
    case 403:
      if (reason !== undefined && RATE_LIMIT_REASONS.has(reason)) return new AppRunError(`Google Drive rate-limited the upload (HTTP 403, ${what})`, { retryable: true, cause });
      if (reason === 'storageQuotaExceeded') {
        return new AppRunError(`Google Drive has no storage left for ${where.account} (${what}); service accounts have none of their own: upload into a shared drive (supports_all_drives)`, {
          retryable: false,
          cause,
        });
      }
      return new AppRunError(`Google Drive refused the upload into ${folder} (HTTP 403, ${what}): ${where.account} needs write access to it`, { retryable: false, cause });
    case 404:
      return new AppRunError(
        `Google Drive did not find ${folder} (${what}): check folder_id, share the folder with ${where.account}` +
          (where.supportsAllDrives ? '' : ', and set supports_all_drives if it is in a shared drive'),
        { retryable: false, cause },
      );
    default:
      if (isTransient(e.status)) return new AppRunError(`Google Drive answered HTTP ${e.status} (${what})`, { retryable: true, cause });
      return new AppRunError(`Google Drive refused the upload (HTTP ${e.status}, ${what})`, { retryable: false, cause });
  }
}

function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Drive's error body: `{error: {code, message, errors: [{domain, reason, message}]}}`. */
function driveErrorDetail(e: HttpError): { reason: string | undefined; message: string | undefined } {
  const body = record(record(e.data).error);
  const first = Array.isArray(body.errors) ? record(body.errors[0]) : {};
  return { reason: text(first.reason), message: text(body.message) ?? text(first.message) };
}

function httpErrorOf(error: unknown): HttpError {
  const o = record(error);
  const response = record(o.response);
  const config = record(o.config);
  const status = typeof response.status === 'number' ? response.status : undefined;
  const url = config.url instanceof URL ? config.url.href : typeof config.url === 'string' ? config.url : undefined;
  return { status, data: response.data, url, code: o.code, message: error instanceof Error ? error.message : String(error) };
}

function networkReason(e: HttpError): string {
  return typeof e.code === 'string' && !e.message.includes(e.code) ? `${e.code} ${e.message}` : e.message;
}

/** Same endpoint, ignoring the query (gaxios may add one) and a trailing slash. */
function sameUrl(a: string, b: string): boolean {
  const norm = (u: string): string => {
    try {
      const url = new URL(u);
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
