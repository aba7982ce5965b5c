import { fieldError } from '../../core/errors.js';
import { parseQuery, QueryShapeError, type QueryTree } from '../../core/request/query-input.js';
import type { AppContext } from './state.js';

/** The decoded query of a request (repeated keys and bracket notation kept); a malformed one is a 400. */
export function queryOf(ctx: AppContext): QueryTree {
  try {
    return parseQuery(ctx.querystring);
  } catch (err) {
    if (err instanceof QueryShapeError) throw fieldError(err.field, err.message);
    throw err;
  }
}

/**
 * The query with the fields of a JSON body added, for POST operations that accept either
 * (`POST /batch/cancel` takes `id` in the query or in `{"id": N}`). The query wins on conflict.
 */
export function queryAndBodyOf(ctx: AppContext): QueryTree {
  const query = queryOf(ctx);
  const body = (ctx.request as { body?: unknown }).body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (query[k] !== undefined) continue;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') query[k] = [String(v)];
    }
  }
  return query;
}
