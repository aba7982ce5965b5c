// Form helpers: labelled inputs and the API's 400 `fields` shown next to the input they are about.
import { ApiFailure } from './api.js';
import { h, type Attrs, type Child } from './dom.js';

let uid = 0;
const nextId = (name: string): string => `f-${name.replace(/[^a-zA-Z0-9_-]/g, '_')}-${++uid}`;

/** A labelled control; `name` is the API's field name, so its errors land beside it. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  control.id ||= nextId(control.name || 'field');
  const hintEl = hint ? h('small', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  const isCheck = control instanceof HTMLInputElement && control.type === 'checkbox';
  return h(
    'div',
    { class: isCheck ? 'field field-check' : 'field', 'data-field': control.name },
    isCheck ? [control, h('label', { for: control.id }, label)] : [h('label', { for: control.id }, label), control],
    hintEl,
  );
}

export const input = (name: string, attrs: Attrs = {}): HTMLInputElement => h('input', { name, ...attrs });
export const checkbox = (name: string, checked = false): HTMLInputElement => h('input', { name, type: 'checkbox', checked });

export function select(name: string, options: [value: string, label: string][], value = ''): HTMLSelectElement {
  const el = h(
    'select',
    { name },
    options.map(([v, l]) => h('option', { value: v }, l)),
  );
  // An unknown value leaves the first option selected (a select never shows blank).
  if (options.some(([v]) => v === value)) el.value = value;
  return el;
}

/** Where a form says what went wrong (and what went right). */
export function messageArea(): HTMLElement {
  return h('div', { class: 'form-message', role: 'status', 'aria-live': 'polite' });
}

export function showMessage(area: HTMLElement, text: string, kind: 'error' | 'ok' = 'error'): void {
  area.className = `form-message ${kind}`;
  area.textContent = text;
}

/** Clears the errors of an earlier submit. */
export function clearErrors(form: HTMLElement, area?: HTMLElement): void {
  for (const el of form.querySelectorAll('.field-error')) el.remove();
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  if (area) {
    area.className = 'form-message';
    area.textContent = '';
  }
}

/** Shows a failure: each of the API's field messages next to its input, the rest in the message area. */
export function showFailure(form: HTMLElement, area: HTMLElement, err: unknown): void {
  clearErrors(form, area);
  if (!(err instanceof ApiFailure)) {
    showMessage(area, err instanceof Error ? err.message : String(err));
    return;
  }
  const unplaced: string[] = [];
  for (const [name, messages] of Object.entries(err.fields)) {
    // A nested field (settings.url) belongs to the input of its last part when there is one.
    const container = form.querySelector(`[data-field="${CSS.escape(name)}"]`) ?? form.querySelector(`[data-field="${CSS.escape(name.split('.').pop() ?? name)}"]`);
    const text = `${name}: ${messages.join('; ')}`;
    if (!container) {
      unplaced.push(text);
      continue;
    }
    const control = container.querySelector('input, select, textarea');
    const errorEl = h('div', { class: 'field-error', id: `${control?.id ?? name}-error` }, messages.join('; '));
    control?.setAttribute('aria-invalid', 'true');
    control?.setAttribute('aria-errormessage', errorEl.id);
    container.append(errorEl);
  }
  showMessage(area, [err.message, ...unplaced].join(' — '));
}

/** Runs a submit handler with the button disabled and failures shown. */
export function onSubmit(form: HTMLFormElement, area: HTMLElement, handler: () => Promise<void>): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
    if (button) button.disabled = true;
    clearErrors(form, area);
    handler()
      .catch((err: unknown) => showFailure(form, area, err))
      .finally(() => {
        if (button) button.disabled = false;
      });
  });
}

export const submitButton = (label: string): HTMLButtonElement => h('button', { type: 'submit', class: 'primary' }, label);

/** A section with a heading, for the blocks of a page. */
export function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card' }, h('h2', null, title), ...children);
}
