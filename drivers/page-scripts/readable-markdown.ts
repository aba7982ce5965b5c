/** What @mozilla/readability's constructor and parse() give (the options this script uses). */
export interface ReadabilityClass {
  new (doc: Document, options: { keepClasses: boolean; serializer: (node: Node) => Node; charThreshold: number }): { parse(): { title?: string | null; content?: unknown } | null };
}
/** What turndown's constructor and the GFM plugin give (the calls this script makes). */
export interface TurndownClass {
  new (options: Record<string, string>): { use(plugin: unknown): void; remove(filter: string[]): void; turndown(node: Node): string };
}

export interface ReadableMarkdown {
  markdown: string;
  /** main mode found no article (a list, a home page…): the whole body was converted instead */
  wholeBody: boolean;
}

/**
 * The page's readable content as Markdown, from the rendered DOM as the shots show it. Runs in the page,
 * self-contained apart from its arguments (drivers/shared/page-markdown.ts assembles it with the libraries):
 * 1. A flat copy of the document: open shadow roots are walked in place of their host's children (a slot
 *    shows what is assigned to it), elements that are not rendered (display: none, closed <details>) and
 *    scripts, styles and templates are left out, links and images get their absolute URLs (`href`, `currentSrc`
 *    as the browser resolved them) and a <base>, so nothing depends on the page's own base any more.
 * 2. `main`: Readability (Firefox's reader view) picks the article on the copy; its headline is put back
 *    as the `#` heading (Readability takes it out of the content). When it finds no article, or `full`, the
 *    copy's whole body is converted.
 * 3. Turndown with the GFM plugin: ATX headings, fenced code (the `language-*` class kept), GitHub tables.
 */
export function readableMarkdown(mode: 'main' | 'full', Readability: ReadabilityClass, Turndown: TurndownClass, gfm: unknown): ReadableMarkdown {
  const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'link', 'meta', 'base']);
  const copy = document.implementation.createHTMLDocument('');
  const rendered = (el: Element): boolean => {
    if (typeof el.checkVisibility !== 'function') return getComputedStyle(el).display !== 'none';
    // display: contents has no box of its own (checkVisibility is false) but shows its children.
    return el.checkVisibility() || getComputedStyle(el).display === 'contents';
  };
  const cloneInto = (source: Node, into: Node, inBody: boolean): void => {
    if (source.nodeType === Node.TEXT_NODE) {
      into.appendChild(copy.createTextNode((source as Text).data));
      return;
    }
    if (source.nodeType !== Node.ELEMENT_NODE) return;
    const el = source as Element;
    const name = el.localName;
    // A slot shows what is assigned to it, else its own fallback content.
    if (name === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      for (const node of assigned.length > 0 ? assigned : Array.from(el.childNodes)) cloneInto(node, into, inBody);
      return;
    }
    const jsonLd = name === 'script' && (el.getAttribute('type') ?? '').toLowerCase() === 'application/ld+json';
    if (SKIPPED.has(name) && !jsonLd && !(name === 'meta' && !inBody)) return;
    if (inBody && !jsonLd && !rendered(el)) return;
    let clone: Element;
    try {
      clone = el.namespaceURI === 'http://www.w3.org/1999/xhtml' ? copy.createElement(name) : copy.createElementNS(el.namespaceURI, el.tagName);
      for (const attribute of Array.from(el.attributes)) {
        if (attribute.name === 'srcset' || attribute.name.startsWith('on')) continue;
        try {
          clone.setAttribute(attribute.name, attribute.value);
        } catch {
          // an attribute name only the HTML parser accepts: left out
        }
      }
    } catch {
      clone = copy.createElement('div');
    }
    if (name === 'a' || name === 'area') {
      const href = (el as HTMLAnchorElement).href;
      if (typeof href === 'string' && /^(https?:|mailto:|tel:)/i.test(href)) clone.setAttribute('href', href);
      else clone.removeAttribute('href');
    } else if (name === 'img') {
      const img = el as HTMLImageElement;
      const src = img.currentSrc || img.src;
      if (/^(https?:|data:)/i.test(src)) clone.setAttribute('src', src);
      else clone.removeAttribute('src');
    } else if (name === 'input' || name === 'button' || name === 'select' || name === 'textarea') {
      return; // form controls say nothing a reader wants
    }
    into.appendChild(clone);
    const children = el.shadowRoot ? Array.from(el.shadowRoot.childNodes) : Array.from(el.childNodes);
    for (const child of children) cloneInto(child, clone, inBody || name === 'body');
  };

  const html = copy.documentElement;
  html.replaceChildren();
  const lang = document.documentElement.getAttribute('lang');
  if (lang) html.setAttribute('lang', lang);
  const head = copy.createElement('head');
  const base = copy.createElement('base');
  base.setAttribute('href', location.href);
  head.appendChild(base);
  const title = copy.createElement('title');
  title.textContent = document.title;
  head.appendChild(title);
  for (const meta of Array.from(document.head?.querySelectorAll('meta[name], meta[property]') ?? [])) cloneInto(meta, head, false);
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]'))) cloneInto(script, head, false);
  html.appendChild(head);
  const body = copy.createElement('body');
  html.appendChild(body);
  if (document.body) for (const child of Array.from(document.body.childNodes)) cloneInto(child, body, true);

  const turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_', strongDelimiter: '**', linkStyle: 'inlined' });
  turndown.use(gfm);
  turndown.remove(['script', 'style', 'noscript', 'template']);
  const tidy = (markdown: string): string => markdown.replace(/\n{3,}/g, '\n\n').trim() + '\n';

  if (mode === 'main') {
    // Readability changes the document it reads: it gets its own copy, the full mode's body stays intact.
    const article = new Readability(copy.cloneNode(true) as Document, { keepClasses: true, serializer: (node) => node, charThreshold: 200 }).parse();
    if (article && article.content instanceof Node) {
      const markdown = turndown.turndown(article.content).trim();
      const headline = (article.title ?? '').replace(/\s+/g, ' ').trim();
      const opensWithIt = markdown.startsWith('# ') && markdown.slice(2, markdown.indexOf('\n') < 0 ? undefined : markdown.indexOf('\n')).trim() === headline;
      return { markdown: tidy(headline && !opensWithIt ? `# ${headline}\n\n${markdown}` : markdown), wholeBody: false };
    }
  }
  return { markdown: tidy(turndown.turndown(body)), wholeBody: mode === 'main' };
}
