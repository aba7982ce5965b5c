import { z } from 'zod';
import type { BuiltSpecFields, CaptureSpec } from '../../core/capture-spec.js';
import type { Pricing } from '../../core/pricing.js';
import type { Param, ParamValue } from './param-kinds.js';

/**
 * The shape of the capture-option table (its entries are in create-params.ts): everything the service
 * says about one option of GET /screenshot/create, in one place. Validation and the OpenAPI parameters
 * read `param`; CaptureSpec takes `spec` fields as they are; the record shows `record`, read back from
 * the stored spec (no column per option); the Screenshot response shape, the docs table of options and
 * (through OpenAPI) the dashboard's create form are generated from the same entries. Adding an option is
 * one entry here plus the driver code that honours its CaptureSpec field.
 */
export interface CaptureOption<T = unknown> {
  /** name's value: its type and range, aliases and the description the docs and OpenAPI show */
  param: Param<T>;
  /** the value when the request omits it (the CaptureSpec and the record get it) */
  default?: T;
  /** the default in words, when another rule decides it (the country, the device) */
  defaultText?: string;
  /** the option (earlier in the table) whose value is this one's when it is not given: a PDF margin side is `pdf_margin` */
  defaultFrom?: string;
  /** the CaptureSpec field that is this option's value as is (or the default); the record shows the same value */
  spec?: keyof CaptureSpec;
  /**
   * Where the CaptureSpec holds it inside a group (`pdf.format`, `device.width`): the record reads it back
   * from there, and the groups the table builds (specGroup: pdf, video) take it there.
   */
  specPath?: string;
  /** where the CaptureSpec holds it, in words, when create-request.ts builds it otherwise */
  specText?: string;
  /**
   * What it adds to a screenshot's price: `credits` of the operator's price under `pricing` (a key of
   * SHOTFARM_PRICING) for the resolved value; `when` says it in the docs table.
   */
  cost?: { pricing: Exclude<keyof Pricing, 'base'>; when: string; credits: (value: T, price: number) => number };
  /**
   * How the record shows it, under the option's name; absent: not on the record. The record keeps no column
   * per option: its value is read from the stored CaptureSpec (`fromSpec`, `spec` or `specPath`), and when
   * the spec cannot say it (a PDF option while the PDF is off, `cache`, `priority`) from the record's
   * `request_options`, which holds exactly those values. `column` (saying why) keeps it in a column of its
   * name instead, for an option that list, search or a metric query filter or group on.
   */
  record?: {
    schema?: z.ZodType;
    shown?: false;
    /** the value as the stored CaptureSpec holds it (undefined: the spec does not hold it) */
    fromSpec?: (spec: BuiltSpecFields) => unknown;
    column?: string;
    answer?: (value: unknown, mode: 'create' | 'record') => unknown;
  };
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
/** The record fields the options fill, typed: every option with a `record`. */
export type OptionRecordFieldsOf<T extends OptionTable> = {
  -readonly [K in keyof T as T[K] extends { record: object } ? K : never]: RecordValueOf<T[K]>;
};

/** Every option's value: the given one, else the entry's default (undefined for an option without one). */
export type WithDefaults<T extends OptionTable> = {
  [K in keyof T]: T[K] extends { default: unknown } ? ParamValue<T[K]['param']> : ParamValue<T[K]['param']> | undefined;
};
export function withDefaults<T extends OptionTable>(table: T, given: { [K in keyof T]?: unknown }): WithDefaults<T> {
  const out: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) out[name] = given[name] ?? (o.defaultFrom !== undefined ? out[o.defaultFrom] : undefined) ?? o.default;
  return out as WithDefaults<T>;
}

/** A value at a dotted path (`pdf.margin.top`) of an object; undefined when a step is missing. */
const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);

/**
 * A CaptureSpec group (`pdf`, `video`) from the (resolved) option values: each option whose `specPath`
 * is under it, at that path. The caller decides whether the group is on (null when off).
 */
export function specGroup<G extends 'pdf' | 'video'>(table: OptionTable, group: G, values: Record<string, unknown>): NonNullable<CaptureSpec[G]> {
  const out: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) {
    if (!o.specPath?.startsWith(`${group}.`)) continue;
    const keys = o.specPath.slice(group.length + 1).split('.');
    let node = out;
    for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[keys[keys.length - 1] as string] = values[name];
  }
  // The group's fields are the entries whose specPath is under it: the table, not the compiler, knows them.
  return out as unknown as NonNullable<CaptureSpec[G]>;
}

/**
 * The CaptureSpec fields of the options that are one spec field as is: the given value, or the default.
 * create-request.ts builds the rest (groups with specGroup, the device, cookies...).
 */
export function plainOptionValues<T extends OptionTable>(table: T, given: Record<string, unknown>): { spec: SpecFieldsOf<T> } {
  const spec: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) if (o.spec !== undefined) spec[o.spec] = given[name] ?? o.default;
  return { spec: spec as SpecFieldsOf<T> };
}

/** The cost in credits of one screenshot record with these (resolved) option values: the base price and each option's part. */
export function optionsCost(table: OptionTable, pricing: Pricing, values: object): number {
  const given = values as Record<string, unknown>;
  let cost = pricing.base;
  for (const [name, o] of Object.entries(table)) if (o.cost) cost += o.cost.credits(given[name] ?? o.default, pricing[o.cost.pricing]);
  return cost;
}

/** The columns of the record that options fill: the options that list, search or a metric query use. */
export const optionColumns = (table: OptionTable): string[] =>
  Object.entries(table)
    .filter(([, o]) => o.record?.column !== undefined)
    .map(([name]) => name);

/** The options the record shows with no column of their own: their values are the spec's, or in request_options. */
export const optionsWithoutColumn = (table: OptionTable): string[] =>
  Object.entries(table)
    .filter(([, o]) => o.record !== undefined && o.record.column === undefined)
    .map(([name]) => name);

/** What a CaptureSpec says of an option: its projection, its field or the value at its path (undefined: nothing). */
function projected(o: CaptureOption, spec: CaptureSpec): unknown {
  if (o.record?.fromSpec) return o.record.fromSpec(spec);
  if (o.spec !== undefined) return spec[o.spec];
  return o.specPath !== undefined ? at(spec, o.specPath) : undefined;
}

/** An option's empty value, by its kind: no items, 0, false or ''. */
function emptyOf(o: CaptureOption): unknown {
  if (o.param.list) return [];
  const kind = (o.param.schema as { type?: string }).type;
  return kind === 'number' ? 0 : kind === 'boolean' ? false : '';
}

/** The record's value of an option not given: the option it defaults from, its default, else empty. */
const unsetValue = (o: CaptureOption, values: Record<string, unknown>): unknown => (o.defaultFrom !== undefined ? values[o.defaultFrom] : undefined) ?? o.default ?? emptyOf(o);

/** What the stored spec says of an option, else what the record shows of one not given. */
const specValue = (o: CaptureOption, spec: CaptureSpec, values: Record<string, unknown>): unknown => projected(o, spec) ?? unsetValue(o, values);

/**
 * The record's option values of one screenshot: what its CaptureSpec says (the country's language, a
 * catalogue device's viewport), else the value given (with its default), else empty.
 */
export function recordValuesOf<T extends OptionTable>(table: T, given: Record<string, unknown>, spec: CaptureSpec): OptionRecordFieldsOf<T> {
  const out: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) if (o.record) out[name] = projected(o, spec) ?? given[name] ?? unsetValue(o, out);
  return out as OptionRecordFieldsOf<T>;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The record's `request_options`: the values of its options that are in no column and that the stored
 * spec does not say (a PDF option while the PDF is off, the cache period, the priority); every other
 * option value is read back from the spec, so each value is stored once.
 */
export function requestOptionsOf(table: OptionTable, fields: Record<string, unknown>, spec: CaptureSpec): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) {
    if (!o.record || o.record.column !== undefined || fields[name] === undefined) continue;
    if (!same(fields[name], specValue(o, spec, fields))) kept[name] = fields[name];
  }
  return kept;
}

/** The option values of a stored row (raw, as the request resolved them): its columns, its request_options, its spec. */
export function storedOptionValues<T extends OptionTable>(table: T, stored: object): OptionRecordFieldsOf<T> {
  const row = stored as Record<string, unknown>;
  const spec = row.capture_spec as CaptureSpec;
  const kept = (row.request_options ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) {
    if (!o.record) continue;
    out[name] = o.record.column !== undefined ? row[name] : name in kept ? kept[name] : specValue(o, spec, out);
  }
  return out as OptionRecordFieldsOf<T>;
}

/** The option fields of a record answer, from its (normalised) row's option values. */
export function optionRecordFields(table: OptionTable, values: object, mode: 'create' | 'record'): Record<string, unknown> {
  const row = values as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(table)) {
    if (!o.record || o.record.shown === false) continue;
    const value = row[name];
    out[name] = o.record.answer ? o.record.answer(value, mode) : value;
  }
  return out;
}

/** The zod shape of the option fields a record shows, typed: each option's record schema, else its parameter's. */
export type OptionRecordShapeOf<T extends OptionTable> = {
  -readonly [K in keyof T as T[K] extends { record: { shown: false } } ? never : T[K] extends { record: object } ? K : never]: T[K] extends { record: { schema: infer S extends z.ZodType } }
    ? S
    : T[K]['param']['schema'];
};

/** The zod shape of the option fields of the Screenshot response (the record's schema, else the parameter's). */
export function optionRecordShape<T extends OptionTable>(table: T): OptionRecordShapeOf<T> {
  return Object.fromEntries(
    Object.entries(table)
      .filter(([, o]) => o.record && o.record.shown !== false)
      .map(([name, o]) => [name, o.record?.schema ?? o.param.schema]),
  ) as OptionRecordShapeOf<T>;
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

export const OPTIONS_TABLE_START = '<!-- capture options table: generated from api/options/create-params.ts (CAPTURE_OPTIONS); edit the entries there -->';
export const OPTIONS_TABLE_END = '<!-- end of capture options table -->';

/** The docs table of options (docs/api-clients.md holds it between the markers). */
export function optionsMarkdownTable(table: OptionTable): string {
  const rows = Object.entries(table).map(([name, o]) => {
    const schema = z.toJSONSchema(o.param.schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
    const def = o.default !== undefined ? `\`${String(o.default)}\`` : o.defaultFrom !== undefined ? `\`${o.defaultFrom}\`` : (o.defaultText ?? '');
    const aliases = (o.param.aliases ?? []).map((a) => `\`${a.name}\``).join(', ');
    const spec = o.spec !== undefined ? `\`${o.spec}\`` : o.specPath !== undefined ? `\`${o.specPath}\`` : (o.specText ?? '');
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
