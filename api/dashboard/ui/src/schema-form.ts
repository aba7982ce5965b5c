// A form generated from a plugin's settings JSON Schema (GET /app/types): each property becomes a
// labelled input by its type; `writeOnly` (secret) properties are password inputs that, when editing,
// may stay empty to keep the stored secret.
import { h } from './dom.js';
import { checkbox, field, input, select } from './forms.js';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  default?: unknown;
  description?: string;
  title?: string;
  format?: string;
  writeOnly?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  anyOf?: JsonSchema[];
}

/** The schema's own type, looking through `anyOf` (optional and nullable values). */
function typeOf(schema: JsonSchema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.enum) return 'string';
  const inner = schema.anyOf?.find((s) => s.type !== 'null');
  return inner ? typeOf(inner) : 'any';
}

interface Control {
  name: string;
  element: HTMLElement;
  read(): { set: boolean; value?: unknown };
}

function control(name: string, schema: JsonSchema, required: boolean, current: unknown, editing: boolean): Control {
  const label = `${schema.title ?? name}${required ? '' : ' (optional)'}`;
  const hint = [schema.description, schema.writeOnly && editing ? 'Leave empty to keep the stored value.' : null].filter(Boolean).join(' ');
  const start = current ?? schema.default;
  const type = typeOf(schema);
  const itemsEnum = schema.items?.enum ?? schema.items?.anyOf?.flatMap((s) => s.enum ?? []);

  if (type === 'boolean') {
    const box = checkbox(name, Boolean(start));
    return { name, element: field(label, box, hint), read: () => ({ set: true, value: box.checked }) };
  }
  if (type === 'array' && itemsEnum && itemsEnum.length > 0) {
    const chosen = new Set(Array.isArray(start) ? start.map(String) : []);
    const boxes = itemsEnum.map((v) => {
      const box = checkbox(name, chosen.has(String(v)));
      box.value = String(v);
      return box;
    });
    const group = h(
      'fieldset',
      { class: 'field', 'data-field': name },
      h('legend', null, label),
      hint ? h('small', { class: 'hint' }, hint) : null,
      h(
        'div',
        { class: 'row checks' },
        boxes.map((b) => field(b.value, b)),
      ),
    );
    return { name, element: group, read: () => ({ set: true, value: boxes.filter((b) => b.checked).map((b) => b.value) }) };
  }
  if (schema.enum || schema.anyOf?.some((s) => s.enum)) {
    const values = (schema.enum ?? schema.anyOf?.flatMap((s) => s.enum ?? []) ?? []).map(String);
    const el = select(name, [...(required ? [] : [['', '—'] as [string, string]]), ...values.map((v): [string, string] => [v, v])], start === undefined ? '' : String(start));
    return { name, element: field(label, el, hint), read: () => (el.value === '' ? { set: false } : { set: true, value: el.value }) };
  }
  if (type === 'number' || type === 'integer') {
    const el = input(name, { type: 'number', step: type === 'integer' ? 1 : 'any', min: schema.minimum, max: schema.maximum, value: start === undefined ? '' : String(start) });
    return { name, element: field(label, el, hint), read: () => (el.value === '' ? { set: false } : { set: true, value: Number(el.value) }) };
  }
  if (type === 'array' || type === 'object' || type === 'any') {
    // Lists of text one per line; anything else as JSON.
    const lines = type === 'array' && typeOf(schema.items ?? {}) === 'string';
    const el = h('textarea', { name, rows: 3 });
    el.value = start === undefined ? '' : lines && Array.isArray(start) ? start.join('\n') : JSON.stringify(start, null, 2);
    return {
      name,
      element: field(label, el, [hint, lines ? 'One per line.' : 'JSON.'].filter(Boolean).join(' ')),
      read: () => {
        if (el.value.trim() === '') return { set: false };
        if (lines)
          return {
            set: true,
            value: el.value
              .split('\n')
              .map((s) => s.trim())
              .filter(Boolean),
          };
        try {
          return { set: true, value: JSON.parse(el.value) as unknown };
        } catch {
          // Sent as text: the plugin's schema answers with a 400 naming this field.
          return { set: true, value: el.value };
        }
      },
    };
  }
  const secret = schema.writeOnly === true;
  const el = input(name, {
    type: secret ? 'password' : schema.format === 'uri' ? 'url' : schema.format === 'email' ? 'email' : 'text',
    autocomplete: secret ? 'new-password' : 'off',
    // A secret is never shown back (answers carry it masked).
    value: secret || start === undefined ? '' : String(start),
  });
  return { name, element: field(label, el, hint), read: () => (el.value === '' ? { set: false } : { set: true, value: el.value }) };
}

/** The inputs of a settings schema, and a reader of the values the user set. */
export function schemaFields(schema: JsonSchema, current: Record<string, unknown> = {}, editing = false): { elements: HTMLElement[]; read(): Record<string, unknown> } {
  const required = new Set(schema.required ?? []);
  const controls = Object.entries(schema.properties ?? {}).map(([name, prop]) => control(name, prop, required.has(name), prop.writeOnly ? undefined : current[name], editing));
  return {
    elements: controls.map((c) => c.element),
    read() {
      const out: Record<string, unknown> = {};
      for (const c of controls) {
        const r = c.read();
        if (r.set) out[c.name] = r.value;
      }
      return out;
    },
  };
}
