import type { Cookie, HttpHeader } from '../../core/capture-spec.js';

/** RFC 9110 token characters: what a header or cookie name may be made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
/** Headers the browser computes itself; setting them would break the request or is refused by browsers. */
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection']);

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function checkHeader(name: string, value: unknown): Parsed<HttpHeader> {
  if (!TOKEN.test(name)) return { ok: false, message: `header name "${name.slice(0, 60)}" is not a valid HTTP header name` };
  if (FORBIDDEN_HEADERS.has(name.toLowerCase())) return { ok: false, message: `header "${name}" is set by the browser and cannot be overridden` };
  if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, message: `header "${name}" must have a text value` };
  const v = String(value).trim();
  if (BAD_VALUE.test(v)) return { ok: false, message: `header "${name}" must not contain line breaks or control characters` };
  return { ok: true, value: { name, value: v } };
}

/**
 * One `header` item: a JSON object string (`{"X-Token":"abc"}`) or `Name: value` lines. Returns the
 * headers it holds, in order.
 */
export function parseHeaderItem(item: string): Parsed<HttpHeader[]> {
  const trimmed = item.trim();
  const headers: HttpHeader[] = [];
  if (trimmed.startsWith('{')) {
    let obj: unknown;
    try {
      obj = JSON.parse(trimmed);
    } catch {
      return { ok: false, message: 'is not valid JSON' };
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return { ok: false, message: 'must be a JSON object of header names to values' };
    for (const [name, value] of Object.entries(obj)) {
      const h = checkHeader(name, value);
      if (!h.ok) return h;
      headers.push(h.value);
    }
    return { ok: true, value: headers };
  }
  for (const line of trimmed.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, message: 'must be a JSON object or `Name: value` lines' };
    const h = checkHeader(line.slice(0, colon).trim(), line.slice(colon + 1));
    if (!h.ok) return h;
    headers.push(h.value);
  }
  return { ok: true, value: headers };
}

/** `a=1; b=2` → cookies. Each pair needs a name; values may be empty. */
export function parseCookieString(text: string): Parsed<Cookie[]> {
  // Checked on the whole text, not per trimmed name or value: `a\n=1` would otherwise pass as `a=1`
  // while the record keeps (and answers) the line break.
  if (BAD_VALUE.test(text.trim())) return { ok: false, message: 'must not contain line breaks or control characters' };
  const cookies: Cookie[] = [];
  for (const part of text.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, message: `"${part.trim().slice(0, 60)}" is not a name=value pair` };
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!TOKEN.test(name)) return { ok: false, message: `"${name.slice(0, 60)}" is not a valid cookie name` };
    if (/[\x00-\x1f\x7f;]/.test(value)) return { ok: false, message: `cookie "${name}" has a control character in its value` };
    cookies.push({ name, value });
  }
  return { ok: true, value: cookies };
}
