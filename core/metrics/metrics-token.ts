import { createHash, timingSafeEqual } from 'node:crypto';

/** The challenge a refused scrape gets (RFC 6750), so a scraper's operator sees which scheme is asked for. */
export const METRICS_CHALLENGE = 'Bearer realm="metrics"';

/** What a refused scrape is told (never the token, nor whether one was close). */
export const METRICS_REFUSAL = 'Invalid or missing metrics token: send Authorization: Bearer <SHOTFARM_METRICS_TOKEN>';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * Whether a request may read /metrics (the API's and every agent's): anyone when no token is set
 * (SHOTFARM_METRICS_TOKEN absent), else only `Authorization: Bearer <token>`. The comparison runs on
 * digests of equal length in constant time, so the answer's timing says nothing about the token.
 */
export function metricsAllowed(authorization: string | undefined, token: string | null): boolean {
  if (token === null) return true;
  const given = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}
