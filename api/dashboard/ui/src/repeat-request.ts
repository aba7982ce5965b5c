// The create request behind a screenshot record, for "copy as curl" and "run again". Which record fields
// are create options is read from the service's own OpenAPI document (the option table is its one owner),
// so a new option shows up here without a change to the dashboard.
import { API_BASE, type Query } from './api.js';
import { createParameters } from './create-parameters.js';
import type { Screenshot } from './records.js';

/**
 * Options that only matter beside another: an output's or feature's options (pdf_format without pdf…) apply
 * when it is on, and the device_* options describe the device only without a catalogue device_name (a
 * catalogue device wins over them). The record carries their values either way; repeating the ones that
 * do not apply would only lengthen the command. Keyed by prefix: the option deciding, and whether they
 * apply when it is set or when it is not.
 */
const APPLY_WITH: [prefix: string, decidedBy: string, appliesWhenSet: boolean][] = [
  ['pdf_', 'pdf', true],
  ['video_', 'video', true],
  ['geo_', 'geo_enable', true],
  ['device_', 'device_name', false],
];
/** Record fields named like an option that hold something else: `apps` are the runs, not the configuration ids. */
const NOT_REPEATED = new Set(['apps']);

/** The names of the create options (aliases too: a record field never carries one). */
export const createOptions = async (): Promise<string[]> => (await createParameters()).map((p) => p.name);

const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === false || v === '' || v === 0 || (Array.isArray(v) && v.length === 0);

/** The query that creates this screenshot again: every option the record shows set, in the OpenAPI's order. */
export function requestOf(s: Screenshot, optionNames: string[]): Query {
  const query: Query = {};
  for (const name of optionNames) {
    const value = s[name];
    if (NOT_REPEATED.has(name) || isEmpty(value) || (typeof value === 'object' && !Array.isArray(value))) continue;
    const gate = APPLY_WITH.find(([prefix, decidedBy]) => name.startsWith(prefix) && name !== decidedBy);
    if (gate && isEmpty(s[gate[1]]) === gate[2]) continue;
    query[name] = Array.isArray(value) ? value.map(String) : typeof value === 'boolean' ? 'true' : String(value as string | number);
  }
  return query;
}

/** Single-quoted for a POSIX shell: nothing inside is expanded. */
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `curl` of the request, for a shell. The key is read from $SHOTFARM_API_KEY (the dashboard never holds
 * a key's secret); the URL is quoted so nothing in it is expanded, the header double-quoted so the key is.
 */
export function curlCommand(origin: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== null && v !== undefined) params.append(name, String(v));
  }
  return `curl -H "X-API-KEY: $SHOTFARM_API_KEY" ${shellQuote(`${origin}${API_BASE}/screenshot/create?${params.toString()}`)}`;
}
