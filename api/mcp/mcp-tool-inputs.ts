import { z } from 'zod';
import { CAPTURE_OPTIONS } from '../options/create-params.js';
import type { CaptureOption, OptionTable } from '../options/option-table.js';
import type { QueryTree } from '../options/query-input.js';
import type { ParamTable } from '../options/read-params.js';

/**
 * The input JSON Schemas of the MCP tools, derived from the option table (api/options/create-params.ts):
 * each capture option an agent may pass is its entry's parameter schema and default, so a new option of the
 * table is a new tool argument with no line here. The tools hand the arguments to the same readers as
 * GET /screenshot/create (as query values, argumentsToFields), so one validation path answers both.
 */

export type JsonSchema = Record<string, unknown>;

/**
 * Options no tool offers, each with the reason. The tools answer an image, Markdown or a record: outputs they
 * do not hand back (HTML, PDF, video) are the API's, and `url` is each tool's own argument.
 */
const NOT_OFFERED = (name: string, o: CaptureOption): string | null => {
  if (name === 'url') return "each tool's own argument";
  if (name === 'html' || name === 'pdf' || name === 'video') return 'an output the tools do not answer (use the API)';
  if (o.specPath?.startsWith('pdf.') || o.specPath?.startsWith('video.') || name.startsWith('pdf_') || name.startsWith('video_')) return 'a setting of an output the tools do not answer';
  if (name === 'apps') return "the account's app configurations: set them up in the dashboard or the API";
  return null;
};

/** The option names the tools offer, in the table's order (the first page of an agent's view starts with what matters). */
export function offeredOptions(table: OptionTable = CAPTURE_OPTIONS): string[] {
  return Object.entries(table)
    .filter(([name, o]) => NOT_OFFERED(name, o) === null)
    .map(([name]) => name);
}

/** One option's JSON Schema (draft 2020-12, as z.toJSONSchema writes it) with its default, as an agent reads it. */
function optionSchema(o: CaptureOption): JsonSchema {
  const { $schema: _drop, ...schema } = z.toJSONSchema(o.param.schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  void _drop;
  const out: JsonSchema = { ...schema };
  if (o.default !== undefined && (typeof o.default !== 'object' || o.default === null)) out.default = o.default;
  else if (o.defaultText !== undefined && typeof out.description === 'string') out.description = `${out.description} (default: ${o.defaultText.replace(/`/g, '')})`;
  return out;
}

/** The JSON Schema of the capture options a tool takes besides its own arguments (`except`: those it sets itself). */
export function optionProperties(except: readonly string[] = [], table: OptionTable = CAPTURE_OPTIONS): Record<string, JsonSchema> {
  return Object.fromEntries(
    offeredOptions(table)
      .filter((name) => !except.includes(name))
      .map((name) => [name, optionSchema(table[name] as CaptureOption)]),
  );
}

/** The JSON Schema of a parameter table of the API's own (a monitor's fields): each parameter's schema. */
export function paramProperties(table: ParamTable): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(table).map(([name, p]) => {
      const { $schema: _drop, ...schema } = z.toJSONSchema(p.schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      void _drop;
      return [name, schema];
    }),
  );
}

/** The schema of one URL: the table's `url` item (an http or https URL of bounded length). */
export function urlSchema(description: string, table: OptionTable = CAPTURE_OPTIONS): JsonSchema {
  const items = (optionSchema(table.url as CaptureOption).items ?? { type: 'string' }) as JsonSchema;
  return { ...items, description };
}

/** A tool's input schema: its own properties first, then the capture options. */
export function toolInput(own: Record<string, JsonSchema>, required: string[], options: Record<string, JsonSchema> = {}): JsonSchema {
  return { type: 'object', properties: { ...own, ...options }, required, additionalProperties: false };
}

/**
 * A tool's JSON arguments as the query values the API's readers take (as a JSON body is: api/http/json-body.ts):
 * scalars one string, lists one string per item. Names the schema does not declare are refused here (the
 * create readers would only warn): an agent's misspelt option must not capture something else than asked.
 */
export function argumentsToFields(args: Record<string, unknown>, schema: JsonSchema): { fields: QueryTree; unknown: string[] } {
  const known = new Set(Object.keys(schema.properties as Record<string, unknown>));
  const fields = Object.create(null) as QueryTree;
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (!known.has(name)) {
      unknown.push(name);
      continue;
    }
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) fields[name] = value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)));
    else fields[name] = [typeof value === 'object' ? JSON.stringify(value) : String(value)];
  }
  return { fields, unknown };
}
