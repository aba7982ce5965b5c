// The client of /api/v1: same-origin calls that carry the session cookie and its CSRF proof, the spec's
// envelopes unwrapped, and its error envelope turned into an ApiFailure that forms show next to their inputs.
import { csrfToken, currentUser, endSession } from './session.js';

/** The header the API reads the CSRF proof from (api/auth/session-cookie.ts CSRF_HEADER). */
const CSRF_HEADER = 'X-CSRF-Token';

export const API_BASE = '/api/v1';

export type Query = Record<string, string | number | boolean | (string | number)[] | null | undefined>;

/** An error answer of the API: {error, code, fields?} of the spec. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

/** Called when the session is no longer valid (401): the app goes back to the login page. */
let onSessionLost: () => void = () => undefined;
export const whenSessionLost = (handler: () => void): void => {
  onSessionLost = handler;
};

/** The query string of `query` (no `?`): empty values left out, a list as repeated names. */
export function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
  }
  return params.toString();
}

export function urlOf(path: string, query: Query = {}): string {
  const qs = queryString(query);
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

async function send(path: string, init: { method?: string; query?: Query; json?: unknown; form?: FormData } = {}): Promise<Response> {
  const headers = new Headers();
  const proof = csrfToken();
  if (proof) headers.set(CSRF_HEADER, proof);
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  } else if (init.form) {
    body = init.form;
  }
  let res: Response;
  try {
    res = await fetch(urlOf(path, init.query), { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, credentials: 'same-origin' });
  } catch {
    throw new ApiFailure(0, 'The service cannot be reached', 'NETWORK_ERROR');
  }
  if (res.ok) return res;
  let envelope: { error?: string; code?: string; fields?: Record<string, string[]> } = {};
  try {
    envelope = (await res.json()) as typeof envelope;
  } catch {
    // not JSON: the status says enough
  }
  if (res.status === 401 && currentUser()) {
    endSession();
    onSessionLost();
  }
  throw new ApiFailure(res.status, envelope.error ?? `${res.status} ${res.statusText}`, envelope.code ?? String(res.status), envelope.fields ?? {});
}

/** A JSON operation; resolves with the envelope's `data`. */
export async function api<T>(path: string, init: { method?: string; query?: Query; json?: unknown; form?: FormData } = {}): Promise<T> {
  const res = await send(path, init);
  const envelope = (await res.json()) as { success: boolean; data: T };
  return envelope.data;
}

/** A file of the API (thumbnail, HTML, PDF, video), fetched with the session. */
export async function apiBlob(path: string, query: Query = {}): Promise<Blob> {
  return (await send(path, { query })).blob();
}

/**
 * The records a create answered: an array per the spec, or one object when the service runs with
 * SHOTFARM_CLIENT_COMPAT=screenshotcenter (the original service's clients read it so).
 */
export const createdRecords = <T>(data: T | T[]): T[] => (Array.isArray(data) ? data : [data]);
