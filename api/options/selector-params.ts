import { z } from 'zod';
import { custom, text, type Param, type ReadResult } from './param-kinds.js';

/** A selector longer than this is not a selector a person wrote: the same bound as `target`. */
export const MAX_SELECTOR_LENGTH = 1024;

/** One CSS selector (the browser parses it; one it refuses is reported on the record). */
export const selector = (description: string): Param<string> => text(MAX_SELECTOR_LENGTH, description);

/**
 * The selectors of a comma list: split at the commas outside brackets, parentheses and quotes, so that
 * `[title="a,b"]` and `:is(.a, .b)` stay whole. A top-level comma of a selector list (`.a, .b`) splits it,
 * which matches the same elements.
 */
export function splitSelectorList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < list.length; i += 1) {
    const c = list[i];
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '\\') i += 1;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth += 1;
    else if ((c === ')' || c === ']') && depth > 0) depth -= 1;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * A list of CSS selectors (`click`, `hide_selector`): repeated parameters, and each value a comma list
 * split as splitSelectorList says. Each selector is read as `selector` reads one.
 */
export function selectorList(max: number, description: string): Param<string[]> {
  const one = selector('CSS selector');
  return custom(z.array(one.schema).max(max).describe(description), true, (raw): ReadResult<string[]> => {
    if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) return { ok: false, messages: ['must be a list of values, not bracket notation'] };
    const items = (raw as string[]).flatMap(splitSelectorList);
    if (items.length > max) return { ok: false, messages: [`must have at most ${max} selectors`] };
    const messages: string[] = [];
    for (const [i, item] of items.entries()) {
      const r = one.read([item]);
      if (!r.ok) messages.push(...r.messages.map((m) => `selector ${i + 1} ("${item.slice(0, 80)}") ${m}`));
    }
    return messages.length > 0 ? { ok: false, messages } : { ok: true, value: items };
  });
}

/** One item of fail_on_status: a status code (`404`) or a class of them (`4xx`). */
export const statusCodeOrClass = custom(
  z
    .string()
    .regex(/^[1-5](\d\d|xx)$/)
    .describe('an HTTP status code such as 404, or a class such as 4xx or 5xx'),
  false,
  (raw): ReadResult<string> => {
    const s = Array.isArray(raw) && typeof raw[0] === 'string' ? raw[0].trim().toLowerCase() : '';
    return /^[1-5](\d\d|xx)$/.test(s) ? { ok: true, value: s } : { ok: false, messages: ['must be a status code from 100 to 599 (404) or a class (4xx, 5xx)'] };
  },
);
