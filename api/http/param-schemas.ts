import { z } from 'zod';
import type { Param } from '../options/param-kinds.js';
import type { ParamTable } from '../options/read-params.js';
import type { BodyField } from './json-field-types.js';
import type { ApiRoute, JsonSchema } from './route.js';

/**
 * The JSON Schema of each request field, from the parameter tables: openapi.json documents them, and the
 * router holds a JSON body to the same types, so a field cannot be documented as one type and read as another.
 */

/** A parameter's JSON Schema, without the `$schema` line zod puts on a whole document. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  return rest;
}

/** Each name a table reads (the parameter and its aliases), with its schema and description. */
export function fieldsOf(table: ParamTable): { name: string; param: Param<unknown>; schema: JsonSchema; description?: string; alias: boolean }[] {
  return Object.entries(table).flatMap(([name, param]) => [
    { name, param, schema: jsonSchemaOf(param.schema), description: param.schema.description, alias: false },
    // The spellings of the original service's clients: not both with the parameter.
    ...(param.aliases ?? []).map((alias) => ({
      name: alias.name,
      param,
      schema: jsonSchemaOf(alias.schema ?? param.schema),
      alias: true,
      description: `alias of ${name}${alias.schema?.description ? `: ${alias.schema.description}` : ''}`,
    })),
  ]);
}

/**
 * Every field a route reads from a JSON body, by name, with the type it declares: the tables' parameters
 * and aliases (a POST reads its query table's fields from the body too, see mount-routes.ts) and the
 * fields only a JSON Schema describes (an app's settings, a batch's urls).
 */
export function bodyFieldsOf(route: ApiRoute): ReadonlyMap<string, BodyField> {
  const fields = new Map<string, BodyField>();
  for (const f of fieldsOf({ ...route.query, ...route.body })) fields.set(f.name, { schema: f.schema, list: f.param.list && f.schema.type === 'array' });
  for (const [name, schema] of Object.entries(route.extraBody ?? {})) fields.set(name, { schema, list: false });
  return fields;
}
