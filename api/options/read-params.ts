import { validationError, type FieldErrors } from '../../core/errors.js';
import type { Param, ParamValue } from './param-kinds.js';
import type { QueryTree, QueryValue } from './query-input.js';

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
    const param = table[name] as Param<unknown>;
    const given = givenValue(name, param, query, fields);
    if (given === null) continue;
    if (given === undefined) {
      if (required.includes(name)) (fields[name] ??= []).push('is required');
      continue;
    }
    const result = param.read(given.raw);
    if (result.ok) out[name] = result.value;
    else (fields[given.source] ??= []).push(...result.messages);
  }
  return out as ParamsOf<T>;
}

/**
 * The raw value of a parameter, under its own name or one of its aliases (and which name gave it, for the
 * 400's `fields`); undefined when none is given, null when an alias was refused (already in `fields`).
 */
function givenValue(name: string, param: Param<unknown>, query: QueryTree, fields: FieldErrors): { raw: QueryValue; source: string } | undefined | null {
  let given: { raw: QueryValue; source: string } | undefined = query[name] === undefined ? undefined : { raw: query[name] as QueryValue, source: name };
  let refused = false;
  for (const alias of param.aliases ?? []) {
    const raw = query[alias.name];
    if (raw === undefined) continue;
    const converted = alias.convert ? alias.convert(raw) : { ok: true as const, value: raw };
    if (!converted.ok) {
      (fields[alias.name] ??= []).push(...converted.messages);
      refused = true;
    } else if (converted.value !== undefined) {
      if (given) {
        (fields[alias.name] ??= []).push(`cannot be combined with ${given.source} (they are the same parameter)`);
        refused = true;
      } else given = { raw: converted.value, source: alias.name };
    }
  }
  return refused ? null : given;
}

/** Every name a table reads: its parameters and their aliases (what is not among them is ignored). */
export function paramNames(table: ParamTable): string[] {
  return Object.entries(table).flatMap(([name, param]) => [name, ...(param.aliases ?? []).map((a) => a.name)]);
}

/** collectParams, throwing the 400 when anything is wrong. */
export function readParams<T extends ParamTable>(table: T, query: QueryTree, required: readonly (keyof T & string)[] = []): ParamsOf<T> {
  const fields: FieldErrors = {};
  const params = collectParams(table, query, fields, required);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return params;
}
