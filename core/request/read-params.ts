import { validationError, type FieldErrors } from '../errors.js';
import type { Param, ParamValue } from './param-kinds.js';
import type { QueryTree } from './query-input.js';

export type ParamTable = Record<string, Param<unknown>>;
export type ParamsOf<T extends ParamTable> = { [K in keyof T]?: ParamValue<T[K]> };

/**
 * Reads every parameter of a table from a decoded query. Errors are collected into `fields`
 * (field → messages) so one 400 names everything that is wrong; parameters the table does not know
 * are ignored (clients of the original service send extra ones, such as `key`).
 */
export function collectParams<T extends ParamTable>(table: T, query: QueryTree, fields: FieldErrors, required: readonly (keyof T & string)[] = []): ParamsOf<T> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(table)) {
    const raw = query[name];
    if (raw === undefined) {
      if (required.includes(name)) (fields[name] ??= []).push('is required');
      continue;
    }
    const result = (table[name] as Param<unknown>).read(raw);
    if (result.ok) out[name] = result.value;
    else (fields[name] ??= []).push(...result.messages);
  }
  return out as ParamsOf<T>;
}

/** collectParams, throwing the 400 when anything is wrong. */
export function readParams<T extends ParamTable>(table: T, query: QueryTree, required: readonly (keyof T & string)[] = []): ParamsOf<T> {
  const fields: FieldErrors = {};
  const params = collectParams(table, query, fields, required);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return params;
}
