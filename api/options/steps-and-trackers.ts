import { z } from 'zod';
import { STEP_COMMANDS, TRACKER_NAME_TYPES, TRACKER_VALUE_TYPES, type Step, type StepCommand, type TrackerSpec } from '../../core/capture-spec.js';
import type { QueryValue } from './query-input.js';
import { normaliseTargetUrl } from './target-url.js';

/** At most this many steps / trackers per request: enough for any real flow, bounded for the browser. */
export const MAX_STEPS = 50;
export const MAX_TRACKERS = 20;
/** The longest a `wait` step or a `wait_for` timeout may take, in seconds (the spec's target fallback). */
const MAX_STEP_SECONDS = 30;

/** NUL is refused in every text of a step or tracker: Postgres cannot store it (jsonb and text). */
const NO_NUL = /^[^\x00]*$/;
const selector = z.string().min(1).max(1024).regex(NO_NUL);
const numeric = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);

/**
 * Commands the original clients' documentation uses: `fill` is `type`; `screenshot` is accepted and
 * skipped with a warning, because the capture is taken after the steps anyway.
 */
export const STEP_COMMAND_ALIASES = { fill: 'type' } as const satisfies Record<string, StepCommand>;
export const SKIPPED_STEP = 'screenshot';
const STEP_NAMES = [...STEP_COMMANDS, ...(Object.keys(STEP_COMMAND_ALIASES) as (keyof typeof STEP_COMMAND_ALIASES)[]), SKIPPED_STEP] as const;
/** The command a step name means; null for the skipped one. */
const commandOf = (name: (typeof STEP_NAMES)[number]): StepCommand | null => (name === SKIPPED_STEP ? null : ((STEP_COMMAND_ALIASES as Record<string, StepCommand>)[name] ?? (name as StepCommand)));

export const stepSchema = z
  .object({
    command: z.enum(STEP_NAMES),
    selector: selector.optional(),
    value: z.union([z.string().max(10_000).regex(NO_NUL), z.number().transform(String)]).optional(),
    timeout: numeric.pipe(z.number().min(0).max(MAX_STEP_SECONDS)).optional(),
  })
  .strict()
  .superRefine((step, ctx) => {
    const need = (field: 'selector' | 'value', why: string): void => {
      if (step[field] === undefined || step[field] === '') ctx.addIssue({ code: 'custom', path: [field], message: `is required for ${step.command} (${why})` });
    };
    switch (commandOf(step.command)) {
      case 'click':
      case 'hover':
      case 'wait_for':
        need('selector', 'the element to act on');
        break;
      case 'type':
        need('selector', 'the field to type into');
        need('value', 'the text to type');
        break;
      case 'select':
        need('selector', 'the <select> element');
        need('value', 'the option value');
        break;
      case 'press':
        need('value', 'a key name such as Enter');
        break;
      case 'wait': {
        need('value', 'seconds to wait');
        const n = Number(step.value);
        if (step.value !== undefined && !(Number.isFinite(n) && n >= 0 && n <= MAX_STEP_SECONDS)) {
          ctx.addIssue({ code: 'custom', path: ['value'], message: `must be seconds from 0 to ${MAX_STEP_SECONDS}` });
        }
        break;
      }
      case 'scroll':
        if (step.selector === undefined && step.value !== undefined && step.value !== 'bottom' && !/^-?\d+$/.test(step.value)) {
          ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be a pixel offset or "bottom" (or give a selector)' });
        }
        break;
      case 'navigate': {
        need('value', 'the URL to load');
        if (step.value !== undefined && !normaliseTargetUrl(step.value).ok) ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be an http or https URL' });
        break;
      }
    }
  })
  .transform((s): Step | null => {
    // A skipped step becomes null: the caller drops it and says so in the record's warnings.
    const command = commandOf(s.command);
    if (command === null) return null;
    const out: Step = { command };
    if (s.selector !== undefined) out.selector = s.selector;
    if (s.value !== undefined) out.value = out.command === 'navigate' ? (normaliseTargetUrl(s.value) as { url: string }).url : s.value;
    if (s.timeout !== undefined) out.timeout = s.timeout;
    return out;
  });

export const trackerSchema = z
  .object({
    id: z.string().min(1).max(64).regex(NO_NUL),
    name: z.string().max(200).regex(NO_NUL).default(''),
    selector,
    value: z.union([z.string().max(1000).regex(NO_NUL), z.number().transform(String)]).default(''),
    input: z.string().max(200).regex(NO_NUL).default(''),
    name_type: z.enum(TRACKER_NAME_TYPES).default('static'),
    value_type: z.enum(TRACKER_VALUE_TYPES).default('text'),
  })
  .strict()
  .superRefine((t, ctx) => {
    if ((t.value_type === 'attribute' || t.name_type === 'attribute') && t.input === '') {
      ctx.addIssue({ code: 'custom', path: ['input'], message: 'is required (the attribute name) when value_type or name_type is attribute' });
    }
  }) satisfies z.ZodType<TrackerSpec, unknown>;

/**
 * Reads automation steps or trackers from any of their encodings and validates each item.
 * `json` holds the values of the JSON parameter (`steps` / `trackers`): each a JSON array or object.
 * `brackets` holds the bracket-notation parameter (`step` / `tracker`): items from `x[i][field]=…`,
 * or plain values that are themselves JSON.
 */
export function readItems<T>(
  names: { json: string; brackets: string },
  json: QueryValue | undefined,
  brackets: QueryValue | undefined,
  schema: z.ZodType<T, unknown>,
  max: number,
): { ok: true; value: T[] } | { ok: false; fields: Record<string, string[]> } {
  if (json !== undefined && brackets !== undefined) {
    return { ok: false, fields: { [names.brackets]: [`cannot be combined with ${names.json}`] } };
  }
  const source = json !== undefined ? names.json : names.brackets;
  const raw = json ?? brackets;
  if (raw === undefined) return { ok: true, value: [] };
  const items = collect(raw);
  if (!items.ok) return { ok: false, fields: { [source]: [items.message] } };
  if (items.value.length > max) return { ok: false, fields: { [source]: [`must have at most ${max} items`] } };
  const value: T[] = [];
  const fields: Record<string, string[]> = {};
  items.value.forEach((item, i) => {
    const r = schema.safeParse(item);
    if (r.success) value.push(r.data);
    else
      for (const issue of r.error.issues) {
        const key = `${source}[${i}]${issue.path.length ? `.${issue.path.join('.')}` : ''}`;
        const message = issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : humanise(issue);
        (fields[key] ??= []).push(message);
      }
  });
  return Object.keys(fields).length > 0 ? { ok: false, fields } : { ok: true, value };
}

function humanise(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.join(', ')}`;
  if (issue.code === 'invalid_format') return 'must not contain NUL characters';
  if (issue.code === 'invalid_type') return issue.input === undefined ? 'is required' : `must be a ${issue.expected}`;
  if (issue.code === 'too_big') return `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
  if (issue.code === 'too_small') return issue.origin === 'string' ? 'must not be empty' : `must be at least ${String(issue.minimum)}`;
  return issue.message;
}

/** Turns every encoding into a list of plain objects. */
function collect(raw: QueryValue): { ok: true; value: unknown[] } | { ok: false; message: string } {
  if (Array.isArray(raw)) {
    const out: unknown[] = [];
    for (const entry of raw) {
      if (typeof entry === 'string') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(entry);
        } catch {
          return { ok: false, message: 'must be a JSON array of objects (or use bracket notation)' };
        }
        if (Array.isArray(parsed)) out.push(...parsed);
        else if (parsed !== null && typeof parsed === 'object') out.push(parsed);
        else return { ok: false, message: 'must be a JSON array of objects' };
      } else {
        const flat = flatten(entry);
        if (!flat.ok) return flat;
        out.push(flat.value);
      }
    }
    return { ok: true, value: out };
  }
  // `tracker[id]=…&tracker[selector]=…`: a single object in bracket notation.
  const flat = flatten(raw);
  return flat.ok ? { ok: true, value: [flat.value] } : flat;
}

/** `{command: ['click'], selector: ['#a']}` → `{command: 'click', selector: '#a'}`. */
function flatten(entry: QueryValue): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  if (Array.isArray(entry)) return { ok: false, message: 'bracket items must be objects such as x[0][field]=value' };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(entry)) {
    if (!Array.isArray(v) || v.length !== 1 || typeof v[0] !== 'string') return { ok: false, message: `field ${k} must be given once as a plain value` };
    out[k] = v[0];
  }
  return { ok: true, value: out };
}
