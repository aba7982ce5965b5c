import { fieldError } from '../../core/errors.js';
import { parseQuery, QueryShapeError, type QueryTree } from '../options/query-input.js';
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
