import { decodeEntities } from './html-entities.js';

/**
 * The page's text, split into the parts the classifier weighs differently, read from the captured HTML
 * with a single forward scan (no DOM library, no regular expression that can backtrack over the page).
 *
 * Decisions:
 *  - Dropped whole, with everything inside: `script`, `style`, `noscript`, `template`, `svg`, `math`,
 *    `iframe`, `object`, `canvas`, `textarea`, `select` (a country list is not the topic), `xmp`,
 *    `noembed`, `noframes`; comments, `<!doctype>`, CDATA and processing instructions. An element that is
 *    never closed swallows the rest of the page, as it does in a browser.
 *  - Kept apart: the first `<title>`; `<meta name=description>` / `og:description` / `twitter:description`;
 *    `<meta name=keywords>`; `og:title` when there is no title; `<h1>`; `<h2>`…`<h6>`; the text inside
 *    `<nav>`, `<header>`, `<footer>` and `<aside>` (menus, footers, sidebars: the site, not the page);
 *    the rest is body. An `<h1>` is a heading wherever it is (`<header><h1>` is common); `<h2>`…`<h6>` in
 *    boilerplate (a sidebar's "Most read") are boilerplate.
 *  - Structured data, read before scripts are dropped: the `@type`s of JSON-LD blocks, microdata
 *    `itemtype`s (last path segment: `https://schema.org/Recipe` → `Recipe`), `og:type` (as `og:<value>`)
 *    and an adult rating (`<meta name=rating content=adult>` or the RTA label) as `rating:adult`.
 *  - Language hints: `<html lang>` (or `xml:lang`), then `<meta http-equiv=content-language>`.
 *  - Tags separate words (`<li>News</li><li>Sports</li>` is two words) except the inline formatting tags
 *    in INLINE, which may split a word (`<b>Re</b>cipe`).
 *  - Input is capped at MAX_HTML_CHARS, each text part at MAX_PART_CHARS (enough for any real article),
 *    the title, the description and the keywords at MAX_META_CHARS.
 *  - It reads markup, not layout: text hidden by CSS is still read.
 */

export const MAX_HTML_CHARS = 5_000_000;
export const MAX_PART_CHARS = 1_000_000;
/** A title or meta text longer than this is not one (an unclosed `<title>` swallowing the page). */
export const MAX_META_CHARS = 2_000;
const MAX_LINKS = 2000;
const MAX_TYPES = 50;
const MAX_META_TAGS = 8;

export interface PageText {
  title: string;
  description: string;
  keywords: string;
  h1: string;
  headings: string;
  /** Text inside `<nav>`, `<header>`, `<footer>`, `<aside>` (`<h1>` excepted). */
  navigation: string;
  body: string;
  /** `<html lang>` / `xml:lang`, else `<meta http-equiv=content-language>`, as written ('' when none). */
  declaredLanguage: string;
  /** schema.org types, `og:<type>` and `rating:adult`, de-duplicated, in page order. */
  structuredTypes: string[];
  /** The `href` of each `<a>` and `<area>`, as written (resolve them against the page URL). */
  links: string[];
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'textarea', 'select', 'xmp', 'noembed', 'noframes']);
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);
const BOILERPLATE = new Set(['nav', 'header', 'footer', 'aside']);
const TAG_NAME = /[A-Za-z][A-Za-z0-9:_-]*/y;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const JSON_LD_TYPE = /"@type"\s*:\s*(?:"([^"]{1,100})"|\[([^\]]{1,1000})\])/g;
const QUOTED = /"([^"]{1,100})"/g;
const CLOSERS = new Map<string, RegExp>();

/** The regular expression that finds the end tag of a raw-text element (`</script >`, any case). */
function closer(name: string): RegExp {
  let re = CLOSERS.get(name);
  if (!re) {
    re = new RegExp(`</${name}[\\s/>]`, 'gi');
    CLOSERS.set(name, re);
  }
  return re;
}

/** Where the tag whose name ends at `from` closes: the index of its `>` (quotes respected), or -1. */
function tagEnd(html: string, from: number): number {
  for (let i = from; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (c === 62 /* > */) return i;
    if (c === 61 /* = */) {
      let j = i + 1;
      while (j < html.length && /\s/.test(html[j] as string)) j++;
      const q = html[j];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, j + 1);
        // An unclosed quote: fall back to the next `>` rather than swallow the page.
        if (close === -1) return html.indexOf('>', j + 1);
        i = close;
      }
    }
  }
  return -1;
}

function attributes(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of source.matchAll(ATTRIBUTE)) {
    const name = (m[1] as string).toLowerCase();
    if (!attrs.has(name)) attrs.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attrs;
}

type Sink = 'body' | 'h1' | 'headings' | 'navigation';

class Collector {
  readonly parts: Record<Sink, string[]> = { body: [], h1: [], headings: [], navigation: [] };
  private readonly sizes: Record<Sink, number> = { body: 0, h1: 0, headings: 0, navigation: 0 };

  add(sink: Sink, text: string): void {
    if (this.sizes[sink] >= MAX_PART_CHARS) return;
    this.parts[sink].push(text);
    this.sizes[sink] += text.length;
  }

  text(sink: Sink): string {
    return cleanText(this.parts[sink].join('')).slice(0, MAX_PART_CHARS);
  }
}

/** Decoded entities, whitespace collapsed (no-break spaces and soft hyphens included). */
function cleanText(text: string): string {
  return decodeEntities(text)
    .replace(/\u00ad/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Extracts the weighted parts of a page from its HTML (see the decisions above). */
export function extractPageText(input: string): PageText {
  const html = input.length > MAX_HTML_CHARS ? input.slice(0, MAX_HTML_CHARS) : input;
  const out = new Collector();
  const descriptions: string[] = [];
  const keywords: string[] = [];
  const types = new Set<string>();
  const links: string[] = [];
  let title: string | null = null;
  let ogTitle = '';
  let htmlLang = '';
  let contentLanguage = '';
  let heading: Sink | null = null;
  let boilerplateDepth = 0;
  const sink = (): Sink => (heading === 'h1' ? 'h1' : boilerplateDepth > 0 ? 'navigation' : (heading ?? 'body'));

  const addType = (t: string): void => {
    const name = t.trim().replace(/^.*[/#:]/, '');
    if (name !== '' && types.size < MAX_TYPES) types.add(name);
  };

  const onStartTag = (name: string, attrs: Map<string, string>): void => {
    if (name === 'html') htmlLang = (attrs.get('lang') || attrs.get('xml:lang') || '').trim();
    else if (/^h[1-6]$/.test(name)) heading = name === 'h1' ? 'h1' : 'headings';
    else if (BOILERPLATE.has(name)) boilerplateDepth++;
    else if ((name === 'a' || name === 'area') && attrs.has('href') && links.length < MAX_LINKS) links.push((attrs.get('href') as string).trim());
    else if (name === 'meta') {
      const key = (attrs.get('name') || attrs.get('property') || attrs.get('itemprop') || '').trim().toLowerCase();
      const content = attrs.get('content') ?? '';
      if (key === 'description' || key === 'og:description' || key === 'twitter:description') {
        if (descriptions.length < MAX_META_TAGS && !descriptions.includes(content)) descriptions.push(content);
      } else if ((key === 'keywords' || key === 'news_keywords') && keywords.length < MAX_META_TAGS) keywords.push(content);
      else if (key === 'og:title') ogTitle = content;
      else if (key === 'og:type' && content.trim() !== '') {
        if (types.size < MAX_TYPES) types.add(`og:${content.trim().toLowerCase()}`);
      } else if (key === 'rating' && /adult|rta-5042/i.test(content)) types.add('rating:adult');
      if ((attrs.get('http-equiv') ?? '').toLowerCase() === 'content-language') contentLanguage = content.split(',')[0]?.trim() ?? '';
    }
    const itemtype = attrs.get('itemtype');
    if (itemtype) for (const t of itemtype.split(/\s+/)) addType(t);
  };

  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      out.add(sink(), html.slice(i));
      break;
    }
    if (lt > i) out.add(sink(), html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end === -1 ? n : end + 3;
      continue;
    }
    const second = html[lt + 1];
    if (second === '!' || second === '?') {
      const end = html.indexOf('>', lt + 2);
      i = end === -1 ? n : end + 1;
      continue;
    }
    const isEnd = second === '/';
    TAG_NAME.lastIndex = lt + (isEnd ? 2 : 1);
    const nameMatch = TAG_NAME.exec(html);
    if (!nameMatch) {
      out.add(sink(), '<'); // a `<` that opens no tag is text
      i = lt + 1;
      continue;
    }
    const name = nameMatch[0].toLowerCase();
    const end = tagEnd(html, TAG_NAME.lastIndex);
    if (end === -1) break; // a tag cut off at the end of the page
    i = end + 1;
    if (!INLINE.has(name)) out.add(sink(), ' ');
    if (isEnd) {
      if (/^h[1-6]$/.test(name)) heading = null;
      else if (BOILERPLATE.has(name) && boilerplateDepth > 0) boilerplateDepth--;
      continue;
    }
    const attrSource = html.slice(TAG_NAME.lastIndex, end);
    const selfClosing = attrSource.endsWith('/');
    const attrs = attributes(attrSource);
    onStartTag(name, attrs);

    // `/>` closes only foreign elements (`<svg/>`); `<script src=x />` still runs to `</script>`.
    const rawText = name === 'title' || (SKIPPED.has(name) && !(selfClosing && (name === 'svg' || name === 'math')));
    if (rawText) {
      const re = closer(name);
      re.lastIndex = i;
      const close = re.exec(html);
      const contentEnd = close ? close.index : n;
      const content = html.slice(i, contentEnd);
      if (name === 'title' && title === null) title = cleanText(content.slice(0, MAX_META_CHARS * 4)).slice(0, MAX_META_CHARS);
      else if (name === 'script' && /ld\+json/i.test(attrs.get('type') ?? '')) {
        for (const m of content.matchAll(JSON_LD_TYPE)) {
          if (m[1] !== undefined) addType(m[1]);
          else for (const q of (m[2] ?? '').matchAll(QUOTED)) addType(q[1] as string);
        }
      }
      if (!close) break;
      const closeEnd = html.indexOf('>', close.index);
      i = closeEnd === -1 ? n : closeEnd + 1;
      out.add(sink(), ' ');
    }
  }

  return {
    title: title ?? cleanText(ogTitle).slice(0, MAX_META_CHARS),
    description: cleanText(descriptions.join(' . ')).slice(0, MAX_META_CHARS),
    keywords: cleanText(keywords.join(' , ')).slice(0, MAX_META_CHARS),
    h1: out.text('h1'),
    headings: out.text('headings'),
    navigation: out.text('navigation'),
    body: out.text('body'),
    declaredLanguage: htmlLang || contentLanguage.trim(),
    structuredTypes: [...types],
    links,
  };
}
