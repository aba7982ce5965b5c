import { z } from 'zod';
import type { QueryValue } from './query-input.js';

/**
 * The building blocks of a parameter table. Each parameter has a typed zod schema (used for validation
 * AND for the OpenAPI document) and a reader that turns the raw query value into the typed value, or
 * into messages for the 400's `fields`. Messages say what the value must be, in the client's words.
 */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; messages: string[] };
export interface Param<T> {
  /** the typed schema of ONE value (for lists: of one item), for validation and OpenAPI */
  schema: z.ZodType<T>;
  /** repeated values and comma lists allowed */
  list: boolean;
  read(raw: QueryValue): ReadResult<T>;
  /** other names the parameter is known by (see `aka`) */
  aliases?: readonly ParamAlias[];
}
export type ParamValue<P> = P extends Param<infer T> ? T : never;

const fail = (...messages: string[]): { ok: false; messages: string[] } => ({ ok: false, messages });

/** A scalar parameter must be given once; its value is the one string. */
function single(raw: QueryValue): ReadResult<string> {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) return fail('must be a single value, not bracket notation');
  if (raw.length !== 1) return fail('must be given only once');
  return { ok: true, value: raw[0] as string };
}

function scalar<T>(schema: z.ZodType<T>, coerce: (s: string) => unknown, expectation: string): Param<T> {
  return {
    schema,
    list: false,
    read(raw) {
      const s = single(raw);
      if (!s.ok) return s;
      const parsed = schema.safeParse(coerce(s.value.trim()));
      return parsed.success ? { ok: true, value: parsed.data } : fail(`must be ${expectation}`);
    },
  };
}

const INTEGER = /^[+-]?\d{1,15}$/;
const DECIMAL = /^[+-]?(\d{1,15}(\.\d{0,15})?|\.\d{1,15})$/;
// The empty value is false: one official client's multipart writer sends `false` as an empty field.
const BOOLEANS: Record<string, boolean> = { '': false, '1': true, true: true, yes: true, on: true, '0': false, false: false, no: false, off: false };

export const toInt = (s: string): unknown => (INTEGER.test(s) ? Number(s) : s);
export const toNumber = (s: string): unknown => (DECIMAL.test(s) ? Number(s) : s);
export const toBool = (s: string): unknown => BOOLEANS[s.toLowerCase()] ?? s;

export const int = (min: number, max: number, description: string): Param<number> => scalar(z.number().int().min(min).max(max).describe(description), toInt, `a whole number from ${min} to ${max}`);

export const num = (min: number, max: number, description: string): Param<number> => scalar(z.number().min(min).max(max).describe(description), toNumber, `a number from ${min} to ${max}`);

export const bool = (description: string): Param<boolean> => scalar(z.boolean().describe(description), toBool, 'a boolean: 1/0, true/false, yes/no, on/off (empty is false)');

export function oneOf<const T extends readonly [string, ...string[]]>(values: T, description: string, aliases: Record<string, T[number]> = {}): Param<T[number]> {
  return scalar(z.enum(values).describe(description), (s) => aliases[s.toLowerCase()] ?? s.toLowerCase(), `one of ${values.join(', ')}`);
}

/** Free text without control characters (they have no place in a header, a cookie or a selector). */
export const text = (max: number, description: string, pattern?: { re: RegExp; says: string }): Param<string> => {
  let schema = z
    .string()
    .max(max)
    .regex(/^[^\x00-\x08\x0a-\x1f\x7f]*$/);
  if (pattern) schema = schema.regex(pattern.re);
  return scalar(schema.describe(description), (s) => s, pattern ? `${pattern.says} (at most ${max} characters)` : `text of at most ${max} characters without control characters`);
};

/** Multi-line text (inline scripts, form bodies): only NUL is refused. */
export const longText = (max: number, description: string): Param<string> =>
  scalar(
    z
      .string()
      .max(max)
      .regex(/^[^\x00]*$/)
      .describe(description),
    (s) => s,
    `text of at most ${max} characters`,
  );

/**
 * A list parameter: repeated keys and comma-separated values both add items (unless `commas` is false,
 * for items that may contain commas themselves, such as URLs and JSON). Each item is checked by `item`.
 */
export function listOf<T>(item: Param<T>, opts: { max: number; commas: boolean; description: string }): Param<T[]> {
  return {
    schema: z.array(item.schema).max(opts.max).describe(opts.description) as unknown as z.ZodType<T[]>,
    list: true,
    read(raw) {
      if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) return fail('must be a list of values, not bracket notation');
      const items = (raw as string[])
        .flatMap((v) => (opts.commas ? v.split(',') : [v]))
        .map((v) => v.trim())
        .filter((v) => v !== '');
      if (items.length > opts.max) return fail(`must have at most ${opts.max} items`);
      const values: T[] = [];
      const messages: string[] = [];
      items.forEach((v, i) => {
        const r = item.read([v]);
        if (r.ok) values.push(r.value);
        else messages.push(...r.messages.map((m) => `item ${i + 1} ("${v.slice(0, 80)}") ${m}`));
      });
      return messages.length > 0 ? fail(...messages) : { ok: true, value: values };
    },
  };
}

/** A parameter whose reader is written by hand (URLs, headers, steps...), with a schema for OpenAPI. */
export function custom<T>(schema: z.ZodType<T>, list: boolean, read: (raw: QueryValue) => ReadResult<T>): Param<T> {
  return { schema, list, read };
}

/**
 * Another name of a parameter: the spelling the original service's clients and documentation use
 * (`lang` for language). `convert` turns the alias's value into the parameter's raw value when the two
 * speak differently (`full_page=true` is `size=page`); `undefined` means the alias says nothing.
 */
export interface ParamAlias {
  name: string;
  convert?: (raw: QueryValue) => ReadResult<QueryValue | undefined>;
  /** the alias's own value schema, for OpenAPI, when it has a `convert` (default: the parameter's) */
  schema?: z.ZodType;
}

/** The parameter, also read under each alias (collectParams refuses an alias given with its parameter). */
export function aka<T>(param: Param<T>, ...aliases: (string | ParamAlias)[]): Param<T> {
  return { ...param, aliases: [...(param.aliases ?? []), ...aliases.map((a) => (typeof a === 'string' ? { name: a } : a))] };
}
