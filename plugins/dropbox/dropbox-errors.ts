import { DropboxResponseError } from 'dropbox';
import { AppRunError } from '../contract.js';

/**
 * Turns what the Dropbox SDK throws into an AppRunError that says whether another attempt can help.
 * The SDK rejects with DropboxResponseError {status, headers, error} for every HTTP answer that is not
 * 2xx (`error` is the parsed JSON body, or its text), and with whatever `fetch` throws otherwise.
 *
 *  - 400: a malformed request (Dropbox answers plain text). Not retryable. At the token endpoint, 400
 *    (invalid_grant, invalid_client…), 401 and 403 mean the refresh token or the app key/secret are wrong
 *    or revoked: not retryable.
 *  - 401: the access token is invalid, expired or lacks a scope (`error.['.tag']`). Not retryable.
 *  - 403: the account or app may not do this (access_error). Not retryable.
 *  - 409: the endpoint's own error, named by `error_summary` (`path/insufficient_space/..`). Not retryable
 *    (malformed_path, disallowed_name, insufficient_space, no_write_permission, conflict, payload_too_large…)
 *    except too_many_write_operations (Dropbox says to retry), content_hash_mismatch (damaged in transit)
 *    and upload-session lookups (an expired or out-of-step session: the next attempt starts a new one).
 *  - 429 (rate limited, with Retry-After) and 5xx: retryable.
 *  - Other 4xx (404 from a wrong endpoint URL, 413…): not retryable; anything else: retryable.
 *  - No answer (connection refused or reset, DNS, TLS): retryable.
 *  - The run's signal aborted: retryable (the runner decides; the time was up or the service is stopping).
 * Messages name the Dropbox path and Dropbox's error summary; they never include a token.
 */

export type DropboxRequestKind = 'token' | 'api' | 'content';

export interface ErrorContext {
  /** The kind of the request that failed (requests are made one at a time). */
  request: DropboxRequestKind | null;
  /** The Dropbox path being written, when the failure belongs to one file. */
  path?: string;
  signal: AbortSignal;
}

const RETRYABLE_CONFLICTS = new Set(['too_many_write_operations', 'content_hash_mismatch', 'lookup_failed', 'incorrect_offset', 'not_found', 'closed', 'not_closed']);

export function toAppRunError(error: unknown, where: ErrorContext): AppRunError {
  if (error instanceof AppRunError) return error;
  const target = where.path ? ` ${where.path}` : '';
  if (where.signal.aborted) {
    return new AppRunError(`Dropbox upload${target} stopped: ${reasonText(where.signal.reason)}`, { retryable: true, cause: error });
  }
  if (error instanceof DropboxResponseError) return responseError(error as DropboxResponseError<unknown>, where, target);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error);
  return new AppRunError(`could not reach Dropbox${where.request === 'token' ? ' to refresh the access token' : ''}: ${detail}`, { retryable: true, cause: error });
}

function responseError(error: DropboxResponseError<unknown>, where: ErrorContext, target: string): AppRunError {
  const { status } = error;
  const summary = summaryOf(error.error);
  const said = summary ? ` (${summary})` : '';
  const fail = (message: string, retryable: boolean): AppRunError => new AppRunError(message, { retryable, cause: error });

  if (status === 429) return fail(`Dropbox rate limit reached${retryAfter(error)}${said}`, true);
  if (status >= 500) return fail(`Dropbox answered ${status}${said}`, true);

  if (where.request === 'token') {
    if (status === 400 || status === 401 || status === 403) {
      return fail(`Dropbox refused to refresh the access token${said}: check refresh_token, app_key and app_secret (the token may have been revoked)`, false);
    }
    return fail(`Dropbox's token endpoint answered ${status}${said}`, status < 400);
  }

  switch (status) {
    case 400:
      return fail(`Dropbox refused the request${target} as malformed${said}`, false);
    case 401: {
      const tag = tagOf(error.error);
      const hint =
        tag === 'expired_access_token'
          ? ': the access token has expired; replace it, or use refresh_token with app_key and app_secret'
          : tag === 'missing_scope'
            ? ': the app needs the files.content.write scope'
            : ': check the access token, it may have been revoked';
      return fail(`Dropbox refused the credentials${said}${hint}`, false);
    }
    case 403:
      return fail(`Dropbox denied access${target}${said}`, false);
    case 409: {
      const tags = summary.split('/').filter((t) => !/^\.*$/.test(t)); // Dropbox ends summaries with `/..`
      const retryable = tags.some((t) => RETRYABLE_CONFLICTS.has(t));
      return fail(`Dropbox could not save${target}${said}`, retryable);
    }
    default:
      if (status >= 400) return fail(`Dropbox answered ${status}${target}${said}: check the configured Dropbox API URLs`, false);
      return fail(`Dropbox answered ${status}${target}${said}`, true);
  }
}

/**
 * Dropbox's own words: `error_summary` of the API's JSON errors, `error: error_description` of the OAuth
 * endpoint, or the start of a text answer (a 400 is plain text).
 */
export function summaryOf(body: unknown): string {
  if (typeof body === 'string') return oneLine(body);
  if (body === null || typeof body !== 'object') return '';
  const b = body as Record<string, unknown>;
  if (typeof b.error_summary === 'string') return oneLine(b.error_summary);
  if (typeof b.error === 'string') return oneLine(typeof b.error_description === 'string' ? `${b.error}: ${b.error_description}` : b.error);
  const tag = tagOf(body);
  return tag ?? '';
}

function tagOf(body: unknown): string | null {
  const inner = (body as { error?: unknown } | null)?.error;
  const tag = (inner as Record<string, unknown> | null | undefined)?.['.tag'];
  return typeof tag === 'string' ? tag : null;
}

function retryAfter(error: DropboxResponseError<unknown>): string {
  const headers = error.headers as { get?: (name: string) => string | null } | undefined;
  const value = typeof headers?.get === 'function' ? headers.get('retry-after') : null;
  return value && /^\d+$/.test(value.trim()) ? ` (retry after ${value.trim()} s)` : '';
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? 'aborted' : String(reason);
}
