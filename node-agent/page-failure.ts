import type { ErrorCause } from '../core/error-cause.js';

/** Why a capture has no page to show: the record's `error` sentence and its stable `error_cause`. */
export interface PageFailure {
  error: string;
  cause: ErrorCause;
}

/** The host and port a page was asked of. */
export interface Endpoint {
  host: string;
  port: number;
}

/** The endpoint of an http(s) URL (default ports filled in), or null for anything else. */
export function endpointOf(url: string): Endpoint | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80) };
  } catch {
    return null;
  }
}
