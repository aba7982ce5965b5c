import { z } from 'zod';
import type { Pricing } from '../pricing.js';
import type { Param, ParamValue } from './param-kinds.js';

/**
 * The shape of the capture-option table (its entries are in create-params.ts): everything the service
 * says about one option of GET /screenshot/create, in one place. Validation and the OpenAPI parameters
 * read `param`; CaptureSpec takes `spec` fields as they are; the record shows `record`; the Screenshot
 * response shape and the docs table of options are generated from the same entries. Adding an option
 * is one entry here plus the driver code that honours its CaptureSpec field.
 */
export interface CaptureOption<T = unknown> {
  /** name's value: its type and range, aliases and the description the docs and OpenAPI show */
  param: Param<T>;
  /** the value when the request omits it (the CaptureSpec and the record get it) */
  default?: T;
  /** the default in words, when another rule decides it (the country, the device) */
  defaultText?: string;
  /** the CaptureSpec field that is this option's value as is (or the default); the record shows the same value */
  spec?: string;
  /** where the CaptureSpec holds it, when create-request.ts builds it from several options */
  specText?: string;
  /**
   * What it adds to a screenshot's price: `credits` of the operator's price under `pricing` (a key of
   * SHOTFARM_PRICING) for the resolved value; `when` says it in the docs table.
   */
  cost?: { pricing: Exclude<keyof Pricing, 'base'>; when: string; credits: (value: T, price: number) => number };
  /**
   * How the record shows it, under the option's name; absent: not on the record. Its value is kept in a
   * column of that name, or with `column: false` (for an option with `spec`) only in the stored CaptureSpec:
   * the spec is stored with every record, so an option needs a column only when list or search filter on it.
   */
  record?: { schema?: z.ZodType; shown?: false; column?: false; answer?: (value: unknown, mode: 'create' | 'record') => unknown };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own value type
export type OptionTable = Record<string, CaptureOption<any>>;

/** The parameter table of an option table, for collectParams and the OpenAPI document. */
export function paramsOf<T extends OptionTable>(table: T): { [K in keyof T]: T[K]['param'] } {
  return Object.fromEntries(Object.entries(table).map(([name, o]) => [name, o.param])) as { [K in keyof T]: T[K]['param'] };
}

/** The options whose CaptureSpec field is the value as is: the keys that field takes. */
type SpecFieldOf<O> = O extends { spec: infer S extends string } ? S : never;
export type SpecFieldsOf<T extends OptionTable> = {
  [K in keyof T as SpecFieldOf<T[K]>]: ParamValue<T[K]['param']>;
};

/** The record's field of an option: the type its record schema states, else the parameter's. */
type RecordValueOf<O extends OptionTable[string]> = O extends { record: { schema: infer S extends z.ZodType } } ? z.output<S> : ParamValue<O['param']>;
type ColumnOf<O> = O extends { record: infer R } ? (R extends { column: false } ? never : true) : never;
/** The record fields (columns) the options fill, typed: an option with a `record` kept in a column. */
export type OptionRecordFieldsOf<T extends OptionTable> = {
  -readonly [K in keyof T as ColumnOf<T[K]> extends never ? never : K]: RecordValueOf<T[K]>;
};

/** Every option's value: the given one, else the entry's default (undefined for an option without one). */
export type WithDefaults<T extends OptionTable> = {
  [K in keyof T]: T[K] extends { default: unknown } ? ParamValue<T[K]['param']> : ParamValue<T[K]['param']> | undefined;
};
export function withDefaults<T extends OptionTable>(table: T, given: { [K in keyof T]?: unknown }): WithDefaults<T> {
  return Object.fromEntries(Object.entries(table).map(([name, o]) => [name, given[name] ?? o.default])) as WithDefaults<T>;
}

/**
 * The CaptureSpec fields and record fields of the options that are one spec field as is: the given value,
 * or the default. create-request.ts builds the others (devices, PDF, video, cookies...) by hand.
 */
export function plainOptionValues(table: OptionTable, given: Record<string, unknown>): { spec: Record<string, unknown>; fields: Record<string, unknown> } {
  const spec: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) {
    if (o.spec === undefined) continue;
    const value = given[name] ?? o.default;
    spec[o.spec] = value;
    if (o.record && o.record.column !== false) fields[name] = value;
  }
  return { spec, fields };
}

/** The cost in credits of one screenshot record with these (resolved) option values: the base price and each option's part. */
export function optionsCost(table: OptionTable, pricing: Pricing, values: Record<string, unknown>): number {
  let cost = pricing.base;
  for (const [name, o] of Object.entries(table)) if (o.cost) cost += o.cost.credits(values[name] ?? o.default, pricing[o.cost.pricing]);
  return cost;
}

/** The columns of the record that options fill (every option with a `record` kept in a column). */
export const optionColumns = (table: OptionTable): string[] =>
  Object.entries(table)
    .filter(([, o]) => o.record && o.record.column !== false)
    .map(([name]) => name);

/** Whether the record answer reads options from the stored CaptureSpec (some have no column). */
export const recordReadsSpec = (table: OptionTable): boolean => Object.values(table).some((o) => o.record && o.record.column === false);

/** An option's stored value: its column, or its field of the stored spec (the default for a record older than the option). */
function storedValue(name: string, o: CaptureOption, row: Record<string, unknown>): unknown {
  if (o.record?.column !== false || o.spec === undefined) return row[name];
  const spec = row.capture_spec as Record<string, unknown> | null | undefined;
  return spec?.[o.spec] ?? o.default;
}

/** The option fields of a record answer, from its row's columns. */
export function optionRecordFields(table: OptionTable, row: Record<string, unknown>, mode: 'create' | 'record'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) {
    if (!o.record || o.record.shown === false) continue;
    const value = storedValue(name, o, row);
    out[name] = o.record.answer ? o.record.answer(value, mode) : value;
  }
  return out;
}

/** The zod shape of the option fields of the Screenshot response (the record's schema, else the parameter's). */
export function optionRecordShape(table: OptionTable): Record<string, z.ZodType> {
  return Object.fromEntries(
    Object.entries(table)
      .filter(([, o]) => o.record && o.record.shown !== false)
      .map(([name, o]) => [name, o.record?.schema ?? o.param.schema]),
  );
}

type JsonSchema = { type?: string | string[]; enum?: unknown[]; minimum?: number; maximum?: number; maxLength?: number; items?: JsonSchema; anyOf?: JsonSchema[]; maxItems?: number };

/** A parameter's type and range in words, from its schema. */
function typeText(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeText).join(' or ');
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(', ');
  const range = s.minimum !== undefined && s.maximum !== undefined ? ` ${s.minimum} to ${s.maximum}` : s.minimum !== undefined ? ` ≥ ${s.minimum}` : '';
  if (s.type === 'integer') return `integer${range}`;
  if (s.type === 'number') return `number${range}`;
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'array' && s.items) return `${s.maxItems !== undefined ? `up to ${s.maxItems} of` : 'list of'} ${typeText(s.items)}`;
  if (s.type === 'string') return s.maxLength !== undefined ? `text (at most ${s.maxLength})` : 'text';
  return 'value';
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export const OPTIONS_TABLE_START = '<!-- capture options table: generated from core/request/create-params.ts (CAPTURE_OPTIONS); edit the entries there -->';
export const OPTIONS_TABLE_END = '<!-- end of capture options table -->';

/** The docs table of options (docs/api-clients.md holds it between the markers). */
export function optionsMarkdownTable(table: OptionTable): string {
  const rows = Object.entries(table).map(([name, o]) => {
    const schema = z.toJSONSchema(o.param.schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
    const def = o.default !== undefined ? `\`${String(o.default)}\`` : (o.defaultText ?? '');
    const aliases = (o.param.aliases ?? []).map((a) => `\`${a.name}\``).join(', ');
    const spec = o.spec !== undefined ? `\`${o.spec}\`` : (o.specText ?? '');
    return `| \`${name}\` | ${cell(typeText(schema))} | ${cell(def)} | ${aliases} | ${o.cost ? cell(`\`${o.cost.pricing}\` ${o.cost.when}`) : ''} | ${spec} | ${cell(o.param.schema.description ?? '')} |`;
  });
  return [
    OPTIONS_TABLE_START,
    '',
    '| option | type and range | default | aliases | extra cost (pricing key) | CaptureSpec | what it does |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    OPTIONS_TABLE_END,
  ].join('\n');
}
