import { fieldError } from '../../core/errors.js';
import type { QueryTree } from '../options/query-input.js';
import { queryOf } from './query.js';
import type { AppContext } from './state.js';

/**
 * One JSON field as the query encoding its parameter table reads: scalars become one string, a list
 * of scalars one string per item (like repeated keys), and objects or lists holding objects (steps,
 * trackers, a header object) one JSON string, as clients send them in a query.
 */
function toQueryValue(value: unknown): string[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) return value.map(String);
  return [JSON.stringify(value)];
}

/**
 * The fields of a JSON object body, as the query encoding its parameter table reads (no body: none).
 * The tree has no prototype, like a parsed query, so no field name reaches Object's own properties.
 */
export function jsonBodyFields(ctx: AppContext): QueryTree {
  const fields = Object.create(null) as QueryTree;
  const body = (ctx.request as { body?: unknown }).body;
  if (body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0)) return fields;
  if (typeof body !== 'object' || Array.isArray(body)) throw fieldError('body', 'must be a JSON object');
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    const v = toQueryValue(value);
    if (v !== undefined) fields[field] = v;
  }
  return fields;
}

/**
 * The parameters of a POST operation whose body is a JSON object (POST /crawl/create), with the query's
 * parameters added; the body wins on conflict, since it is where these operations take their fields.
 */
export function jsonBodyParams(ctx: AppContext): QueryTree {
  const params = queryOf(ctx);
  const fields = jsonBodyFields(ctx);
  for (const field of Object.keys(fields)) params[field] = fields[field] as QueryTree[string];
  return params;
}
