import { validationError, type FieldErrors } from '../../core/errors.js';
import { toBool, toInt, toNumber } from '../options/param-kinds.js';
import type { AppContext } from './state.js';

/** A JSON Schema fragment, as openapi.json documents a request field. */
type Schema = Record<string, unknown>;

/** One field a route reads from a JSON body: its documented schema, and whether a single item stands for a list of one. */
export interface BodyField {
  schema: Schema;
  list: boolean;
}

/**
 * Whether a JSON value has a type its field declares. The values the parameter readers check after this
 * (ranges, patterns, whether a text is a number) stay theirs; this only keeps one JSON type from turning
 * into another on the way to them: before it, `{"url": 1.5}` became the text `1.5` and then the URL
 * `https://1.0.0.5/`, and `{"ignore": true}` the selector `true` (issue 25).
 * A number or a boolean may also come as text that says one (`"5"`, `"true"`, read as the query's text is:
 * toInt, toNumber, toBool), as every client of the query encoding sends them, and a boolean as 0 or 1, as its
 * reader documents; nothing else crosses types, and null is no value of any field.
 */
function accepts(schema: Schema, value: unknown): boolean {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.some((s) => accepts(s as Schema, value));
  }
  const types = declaredTypes(schema);
  // A field documented without a type (nothing JSON Schema can say about it) takes any value but null.
  if (types.length === 0) return value !== null;
  return types.some((type) => {
    switch (type) {
      case 'string':
        return typeof value === 'string';
      case 'integer':
        return typeof value === 'number' || (typeof value === 'string' && typeof toInt(value.trim()) === 'number');
      case 'number':
        return typeof value === 'number' || (typeof value === 'string' && typeof toNumber(value.trim()) === 'number');
      case 'boolean':
        return typeof value === 'boolean' || (typeof value === 'string' && typeof toBool(value.trim()) === 'boolean') || value === 0 || value === 1;
      case 'object':
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      case 'array':
        return Array.isArray(value) && value.every((item) => accepts((schema.items ?? {}) as Schema, item));
      case 'null':
        return value === null;
      default:
        return false;
    }
  });
}

/** The JSON types a schema names: its `type`, or those of its `enum` or `const` values. */
function declaredTypes(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  return [...new Set(values.map(jsonTypeOf))];
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** What a schema expects, in the client's words ("a whole number", "text or a JSON object"). */
function expected(schema: Schema): string {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return [...new Set(options.map((s) => expected(s as Schema)))].join(' or ');
  }
  const names = declaredTypes(schema).map((type) => (type === 'array' ? `a list of items each ${expected((schema.items ?? {}) as Schema)}` : (TYPE_WORDS[type] ?? type)));
  return names.length > 0 ? names.join(' or ') : 'a value';
}

const TYPE_WORDS: Record<string, string> = { string: 'text', integer: 'a whole number', number: 'a number', boolean: 'a boolean', object: 'a JSON object', null: 'null' };
const GIVEN_WORDS: Record<string, string> = { null: 'null', array: 'a list', object: 'a JSON object', integer: 'a number', number: 'a number', boolean: 'a boolean' };
/** What was given, in the client's words: a text is quoted (a number field may take "5", never "abc"). */
const given = (value: unknown): string => (typeof value === 'string' ? `the text ${JSON.stringify(value.slice(0, 40))}` : (GIVEN_WORDS[jsonTypeOf(value)] ?? jsonTypeOf(value)));

/** The message for a value of the wrong type, or null when the type is right. */
export function jsonTypeProblem(field: BodyField, value: unknown): string | null {
  if (accepts(field.schema, value)) return null;
  // A list parameter also takes one item, as a query does (`tag=a` is the list [a]).
  const items = field.schema.items as Schema | undefined;
  if (field.list && items && !Array.isArray(value) && accepts(items, value)) return null;
  // ... and a text that is a comma list of such items (`apps=5,6`), as a form field or the query sends it.
  if (field.list && items && typeof value === 'string' && value.split(',').every((item) => accepts(items, item.trim()))) return null;
  const wanted = field.list && items ? `${expected(items)}, or a list of such items` : expected(field.schema);
  return `must be ${wanted}, not ${given(value)}`;
}

/**
 * Checks the parsed body of a request against the fields its route declares: one 400 naming every field
 * of the wrong JSON type, before anything reads them. Fields the route does not declare are not looked at
 * (they are ignored, as unknown query parameters are). A body that is not an object is its reader's to refuse.
 */
export function checkBodyTypes(ctx: AppContext, fields: ReadonlyMap<string, BodyField>): void {
  const body = (ctx.request as { body?: unknown }).body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const field = fields.get(name);
    const problem = field ? jsonTypeProblem(field, value) : null;
    if (problem) problems[name] = [problem];
  }
  if (Object.keys(problems).length > 0) throw validationError(problems);
}
