import { AppRunError } from '../contract.js';

/**
 * How Graph failures become AppRunErrors: `retryable: false` for what another attempt cannot fix (the
 * token or its permissions, a drive or user that does not exist, a bad request, a name conflict the user
 * asked to fail on, a full drive), retryable for the rest (429, 5xx, timeouts, locks, network errors).
 */

export type ConflictBehavior = 'rename' | 'replace' | 'fail';

/** The run's signal fired (its time is up or the service stops): another attempt may well succeed. */
export function abortedError(signal: AbortSignal): AppRunError {
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'aborted';
  return new AppRunError(`OneDrive upload aborted: ${why}`, { retryable: true, cause: reason });
}

export interface FailureContext {
  /** What was being done, for the message: `uploading Screenshots/4242-www.example.com.png`. */
  what: string;
  conflict: ConflictBehavior;
}

/** A failed HTTP exchange with Graph or an upload session; status -1 (or 0) for no answer at all. */
export function graphHttpFailure(status: number, code: string, message: string, context: FailureContext, cause?: unknown): AppRunError {
  const detail = [code, message].filter((s) => s !== '').join(': ');
  const said = detail ? ` ${detail}` : '';
  const fail = (text: string, retryable: boolean): AppRunError => new AppRunError(`OneDrive: ${text} (${context.what})`, { retryable, cause });
  if (status <= 0) return fail(`Microsoft Graph could not be reached:${said || ' network error'}`, true);
  switch (status) {
    case 401:
      return fail(`Microsoft Graph refused the access token (401):${said}`, false);
    case 403:
      return fail(`access denied (403):${said}; the app needs Files.ReadWrite.All (or Sites.ReadWrite.All for SharePoint) and access to the drive`, false);
    case 404:
      return fail(`not found (404):${said}; check drive_id / user_id`, false);
    case 409:
      return context.conflict === 'fail' ? fail(`a file of that name already exists and conflict is "fail" (409):${said}`, false) : fail(`conflict (409):${said}`, true);
    case 408:
    case 416: // an upload session lost track of the ranges: a new session starts over
    case 423: // locked: someone has the file open, or the drive is being moved
    case 429:
      return fail(`Microsoft Graph answered ${status}:${said}`, true);
    case 507:
      return fail(`the drive is full (507):${said}`, false);
    default:
      return fail(`Microsoft Graph answered ${status}:${said}`, status >= 500);
  }
}

/** The `{error: {code, message}}` body Graph answers failures with, when there is one. */
export function graphErrorBody(body: unknown): { code: string; message: string } {
  const error = body !== null && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  if (error === null || typeof error !== 'object') return { code: '', message: '' };
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code: typeof code === 'string' ? code : '', message: typeof message === 'string' ? message.slice(0, 500) : '' };
}
