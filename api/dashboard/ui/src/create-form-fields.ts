// The inputs of the create form, one per create option, made from each option's JSON Schema in the
// service's OpenAPI document (createParameters). Only what the user sets is sent: an empty input or an
// unticked box leaves the option to the service's default, which the option table decides.
import type { Query } from './api.js';
import type { CreateParameter } from './create-parameters.js';
import { h } from './dom.js';
import { checkbox, field, input, section, select } from './forms.js';
import type { JsonSchema } from './schema-form.js';
import type { z } from 'zod';
import type { Device as DeviceShape } from '../../../screenshots/screenshot-shapes.js';

export interface OptionInput {
  name: string;
  element: HTMLElement;
  /** the option's query value, or undefined when the user left it to the default */
  value(): Query[string];
}

/** `hide_popups` → `Hide popups`: the option's own name, readable. */
export const labelOf = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

const kindOf = (s: JsonSchema): string => (s.enum ? 'enum' : Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'any') : (s.type ?? 'any'));

/** Longer than this, a text option (post data, inline script) gets a text area. */
const LONG_TEXT = 4096;

/** An input for one create option, by its schema: a box, a choice, a number, a list or text. */
export function optionInput(p: CreateParameter): OptionInput {
  const { name, schema } = p;
  const hint = p.description;
  const kind = kindOf(schema);
  if (kind === 'boolean') {
    const box = checkbox(name);
    return { name, element: field(labelOf(name), box, hint), value: () => (box.checked ? true : undefined) };
  }
  if (kind === 'enum') {
    const el = select(name, [['', 'Default'], ...(schema.enum ?? []).map((v): [string, string] => [String(v), String(v)])]);
    return { name, element: field(labelOf(name), el, hint), value: () => el.value || undefined };
  }
  if (kind === 'integer' || kind === 'number') {
    const el = input(name, { type: 'number', step: kind === 'integer' ? 1 : 'any', min: schema.minimum, max: schema.maximum });
    return { name, element: field(labelOf(name), el, hint), value: () => el.value || undefined };
  }
  if (kind === 'array') {
    // A list: comma-separated on one line (the service splits tags, countries and app ids the same way).
    const el = input(name, {});
    const items = (): string[] =>
      el.value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    return { name, element: field(labelOf(name), el, `${hint} Comma-separated.`), value: () => (items().length > 0 ? items() : undefined) };
  }
  const long = (schema.maxLength ?? 0) > LONG_TEXT;
  const el = long ? h('textarea', { name, rows: 3 }) : input(name, {});
  return { name, element: field(labelOf(name), el, hint), value: () => el.value.trim() || undefined };
}

/**
 * The create options in form sections: options named with a word three or more share (pdf_…, video_…,
 * device_…, geo_…) together under that word, the others first. Aliases are left out: the option stands for them.
 */
export function optionSections(parameters: CreateParameter[]): { title: string; parameters: CreateParameter[] }[] {
  const options = parameters.filter((p) => !p.alias);
  const word = (name: string): string => name.split('_')[0] ?? name;
  const counts = new Map<string, number>();
  for (const p of options) counts.set(word(p.name), (counts.get(word(p.name)) ?? 0) + 1);
  const groupOf = (p: CreateParameter): string => ((counts.get(word(p.name)) ?? 0) >= 3 ? word(p.name) : '');
  const titles = [...new Set(options.map(groupOf))];
  return titles.map((g) => ({ title: g === '' ? 'Capture' : g.length <= 3 ? g.toUpperCase() : labelOf(g), parameters: options.filter((p) => groupOf(p) === g) }));
}

/**
 * Every create option as form inputs in their sections (the first open, the rest folded away until
 * wanted: PDF, video, device, geolocation): the create form and the batch form (a batch applies the
 * create options to each URL of its file) build them the same way. `special` replaces an option's input,
 * or leaves the option out with null.
 */
export function optionFieldsets(parameters: CreateParameter[], special: Record<string, OptionInput | null>): { inputs: OptionInput[]; sections: HTMLElement[] } {
  const inputs: OptionInput[] = [];
  const sections = optionSections(parameters).map(({ title, parameters: group }, i) => {
    const made = group.map((p) => (p.name in special ? special[p.name] : optionInput(p))).filter((x): x is OptionInput => x !== null);
    inputs.push(...made);
    const boxes = made.filter((m) => m.element.classList.contains('field-check'));
    const rest = made.filter((m) => !boxes.includes(m));
    const body = [
      h(
        'div',
        { class: 'row' },
        rest.map((m) => m.element),
      ),
      h(
        'div',
        { class: 'row checks' },
        boxes.map((m) => m.element),
      ),
    ];
    return i === 0 ? section(title, ...body) : h('details', { class: 'card', 'data-section': title }, h('summary', null, title), ...body);
  });
  return { inputs, sections };
}

/** A device of the service's catalogue (GET /device/list). */
export type Device = z.infer<typeof DeviceShape>;

/** `device_name` as a choice from the catalogue rather than a text input. */
export function deviceInput(devices: Device[]): OptionInput {
  const device = select('device_name', [['', 'None'], ...devices.map((d): [string, string] => [d.device_name, d.name])]);
  return { name: 'device_name', element: field('Device', device), value: () => device.value || undefined };
}
