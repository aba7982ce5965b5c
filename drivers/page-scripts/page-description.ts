import type { PageMetadata } from '../../core/capture-spec.js';

/** What the page says about itself: the record's `metadata` without the image's colours (the agent reads those). */
export type PageDescription = Omit<PageMetadata, 'colors'>;

/**
 * metadata=1, read in the page after the shots; self-contained.
 * - URLs (canonical, icons) are the browser's resolved `href`s, so absolute.
 * - fonts: the families that render text, not those merely declared: for each element with text of its own
 *   (at most MAX_TEXT_ELEMENTS, in document order, open shadow roots included), the first family of its computed
 *   `font-family` stack that the browser can render. A family is renderable when it is a loaded web font
 *   (`document.fonts`, status `loaded`), a generic family, or an installed font: text measured in a canvas
 *   with `"<family>", monospace` differs from plain `monospace` (or the same against serif), which is how a
 *   missing family shows (it falls back). Works alike in Chromium and Firefox; CDP's getPlatformFontsForNode
 *   would be exact but Chromium-only.
 * - word_count: words of the rendered text (`innerText` of the body), by Intl.Segmenter where the browser has
 *   it (CJK text has no spaces), else by whitespace.
 * - content_type: `document.contentType`, the MIME type the browser took the main document as.
 */
export function pageDescription(): PageDescription {
  const MAX_TEXT_ELEMENTS = 3_000;
  const clean = (value: string | null | undefined): string | null => {
    const text = (value ?? '').replace(/\s+/g, ' ').trim();
    return text === '' ? null : text;
  };
  const metaContent = (selector: string): string | null => clean(document.querySelector<HTMLMetaElement>(selector)?.content);

  const openGraph: Record<string, string> = {};
  const twitter: Record<string, string> = {};
  for (const meta of Array.from(document.querySelectorAll<HTMLMetaElement>('meta[property], meta[name]'))) {
    const key = (meta.getAttribute('property') ?? meta.getAttribute('name') ?? '').trim().toLowerCase();
    const content = clean(meta.content);
    if (content === null) continue;
    if (key.startsWith('og:') && !(key.slice(3) in openGraph)) openGraph[key.slice(3)] = content;
    if (key.startsWith('twitter:') && !(key.slice(8) in twitter)) twitter[key.slice(8)] = content;
  }

  const icons: PageDescription['icons'] = [];
  const seenIcons = new Set<string>();
  for (const link of Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel][href]'))) {
    const rel = link.rel.toLowerCase().split(/\s+/);
    if (!rel.some((r) => r === 'icon' || r === 'apple-touch-icon' || r === 'apple-touch-icon-precomposed' || r === 'mask-icon')) continue;
    if (!/^(https?:|data:)/i.test(link.href) || seenIcons.has(link.href)) continue;
    seenIcons.add(link.href);
    icons.push({ url: link.href, sizes: clean(link.getAttribute('sizes')), type: clean(link.getAttribute('type')) });
  }
  const canonicalHref = document.querySelector<HTMLLinkElement>('link[rel~="canonical" i][href]')?.href ?? '';

  // Fonts that render text.
  const GENERIC = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'ui-serif', 'ui-sans-serif', 'ui-monospace', 'ui-rounded', 'math', 'emoji', 'fangsong']);
  const loaded = new Set<string>();
  document.fonts.forEach((face) => {
    if (face.status === 'loaded') loaded.add(face.family.replace(/^["']|["']$/g, '').toLowerCase());
  });
  const context = document.createElement('canvas').getContext('2d');
  const SAMPLE = 'mmmmmmmmmmlli WQ@#0123456789';
  const widthIn = (font: string): number => {
    if (!context) return 0;
    context.font = `72px ${font}`;
    return context.measureText(SAMPLE).width;
  };
  const fallbackWidths = { monospace: widthIn('monospace'), serif: widthIn('serif') };
  const available = new Map<string, boolean>();
  const renders = (family: string): boolean => {
    const key = family.toLowerCase();
    if (GENERIC.has(key) || loaded.has(key)) return true;
    let known = available.get(key);
    if (known === undefined) {
      const quoted = `"${family.replace(/["\\]/g, '')}"`;
      known = widthIn(`${quoted}, monospace`) !== fallbackWidths.monospace || widthIn(`${quoted}, serif`) !== fallbackWidths.serif;
      available.set(key, known);
    }
    return known;
  };
  const fonts: string[] = [];
  const stacks = new Set<string>();
  let textElements = 0;
  const visit = (root: Element | ShadowRoot): void => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node !== null && textElements < MAX_TEXT_ELEMENTS; node = walker.nextNode()) {
      const el = node as Element;
      if (el.shadowRoot) visit(el.shadowRoot);
      if (!Array.from(el.childNodes).some((child) => child.nodeType === Node.TEXT_NODE && (child as Text).data.trim() !== '')) continue;
      if (el.localName === 'script' || el.localName === 'style' || el.localName === 'noscript' || el.localName === 'template') continue;
      textElements += 1;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || stacks.has(style.fontFamily)) continue;
      stacks.add(style.fontFamily);
      const families = style.fontFamily.split(',').map((f) => f.trim().replace(/^["']|["']$/g, ''));
      const used = families.find((family) => family !== '' && renders(family));
      if (used && !fonts.some((f) => f.toLowerCase() === used.toLowerCase())) fonts.push(used);
    }
  };
  if (document.body) visit(document.body);

  const text = document.body?.innerText ?? '';
  let wordCount = 0;
  const Segmenter = (Intl as unknown as { Segmenter?: new (lang: string | undefined, options: { granularity: 'word' }) => { segment(text: string): Iterable<{ isWordLike?: boolean }> } }).Segmenter;
  if (Segmenter) {
    for (const segment of new Segmenter(document.documentElement.lang || undefined, { granularity: 'word' }).segment(text)) if (segment.isWordLike) wordCount += 1;
  } else {
    wordCount = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  }

  return {
    title: clean(document.title),
    description: metaContent('meta[name="description" i]') ?? openGraph.description ?? null,
    lang: clean(document.documentElement.getAttribute('lang')),
    canonical: /^https?:/i.test(canonicalHref) ? canonicalHref : null,
    open_graph: openGraph,
    twitter,
    icons,
    theme_color: metaContent('meta[name="theme-color" i]'),
    fonts,
    word_count: wordCount,
    content_type: clean(document.contentType),
  };
}
