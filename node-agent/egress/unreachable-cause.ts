import type { ErrorCause } from '../../core/error-cause.js';

/** Why a page's host could not be reached at all, as the record's `error_cause` says it (issue #17: honest outcomes). */
export type UnreachableCause = Extract<ErrorCause, 'dns' | 'refused' | 'reset' | 'timeout' | 'no_route' | 'unreachable'>;

/** One request the guard let through but could not deliver: the host the browser asked for, and why. */
export interface UnreachableRequest {
  host: string;
  port: number;
  cause: UnreachableCause;
}

/** The cause of a failed resolution or connection, from Node's error code. */
export function unreachableCause(error: unknown): UnreachableCause {
  const code = (error as { code?: string } | null)?.code ?? '';
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'ENODATA', 'EAI_FAIL'].includes(code) || /has no address/.test(String(error))) return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  if (code === 'ETIMEDOUT' || /timed out/.test(String(error))) return 'timeout';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'no_route';
  return 'unreachable';
}

/**
 * One plain sentence naming the host and the cause: what a record that ended this way says. `detail` is
 * the browser's own code when the browser, not the guard, saw an unnamed failure (it helps a support case).
 */
export function unreachableSentence(request: UnreachableRequest, detail = ''): string {
  const where = `${request.host}:${request.port}`;
  switch (request.cause) {
    case 'dns':
      return `Could not resolve host ${request.host}.`;
    case 'refused':
      return `${where} refused the connection.`;
    case 'reset':
      return `${where} reset the connection.`;
    case 'timeout':
      return `${where} did not answer in time.`;
    case 'no_route':
      return `${where} is unreachable: there is no route to it.`;
    case 'unreachable':
      return detail ? `${where} could not be reached (${detail}).` : `${where} could not be reached.`;
  }
}
