// A tiny DOM builder. Text always goes in as text nodes (never innerHTML), so data from the API cannot
// become markup.

export type Child = Node | string | number | null | undefined | false;
type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Record<string, AttrValue | ((event: Event) => void)>;

/** An element with attributes (`on…` keys add listeners; false/null/undefined leave the attribute out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null = null, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  append(el, ...children);
  return el;
}

/** Appends children, strings and numbers as text. */
export function append(parent: Node, ...children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A table from a header row and rows of cells. */
export function table(headers: string[], rows: Child[][], caption?: string): HTMLTableElement {
  return h(
    'table',
    null,
    caption ? h('caption', null, caption) : null,
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        headers.map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((cells) =>
        h(
          'tr',
          null,
          cells.map((c) => h('td', null, c)),
        ),
      ),
    ),
  );
}

/** A labelled figure: one of the overview's numbers. */
export function stat(label: string, value: Child, note?: string): HTMLElement {
  return h(
    'div',
    { class: 'stat', role: 'group', 'aria-label': label },
    h('div', { class: 'stat-label' }, label),
    h('div', { class: 'stat-value' }, value),
    note ? h('div', { class: 'stat-note' }, note) : null,
  );
}

/** A paragraph for "nothing here yet". */
export function empty(text: string): HTMLElement {
  return h('p', { class: 'empty' }, text);
}
