import { TAXONOMY } from './taxonomy.js';
import { normalizeText, tokenize } from './tokenize.js';

/**
 * What the page's URL and its links say about the category, from the taxonomy's `hosts`, `paths` and
 * `pathPatterns` (taxonomy.ts explains how each hint is written).
 *
 * Decisions (points added to a category's evidence; classify.ts turns evidence into scores):
 *  - The page's host: a known domain (`espn.com`, `amazon.*`) HOST_DOMAIN, a label suffix (`.gov`,
 *    `.ac.uk`) HOST_SUFFIX, a word inside the host name (`news` in `foxnews.com`) HOST_WORD; each kind
 *    counts once per category. A suffix matches at the end of the host, or before a two-letter country
 *    code (`.gov` matches `nasa.gov` and `www.gov.uk`, but `.va` does not match `va.gov`).
 *  - The page's path: each distinct path hint PATH_HINT (at most MAX_PATH_HINTS a category), a path
 *    pattern PATH_PATTERN. The URL's words also go through the keyword matcher as a text part of their
 *    own (see classify.ts), so a slug like `/best-banana-bread-recipe` counts as words.
 *  - When `url` and `final_url` differ (a redirect), both are read and each category keeps the higher.
 *  - Links: a link counts for a category when one of its path hints or patterns matches the link's path
 *    (hosts are not read: every site links to the social networks); evidence LINK_WEIGHT × ln(1 + n) for
 *    n matching links, capped at LINK_CAP, so a shop's dozens of `/product/` links point to shopping
 *    without drowning the text. At most MAX_LINKS distinct links are read.
 */

export const HOST_DOMAIN = 6;
export const HOST_SUFFIX = 5;
export const HOST_WORD = 2.5;
export const PATH_HINT = 2.5;
export const MAX_PATH_HINTS = 2;
export const PATH_PATTERN = 3;
export const LINK_WEIGHT = 1.5;
export const LINK_CAP = 6;
export const MAX_LINKS = 1000;

interface PathHint {
  kind: 'segment' | 'prefix' | 'word';
  value: string;
}

interface CompiledCategory {
  domains: RegExp[];
  suffixes: RegExp[];
  words: string[];
  paths: PathHint[];
  patterns: readonly RegExp[];
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const COMPILED: CompiledCategory[] = TAXONOMY.map((category) => {
  const compiled: CompiledCategory = { domains: [], suffixes: [], words: [], paths: [], patterns: category.pathPatterns ?? [] };
  for (const hint of category.hosts) {
    const h = hint.toLowerCase();
    if (h.startsWith('.')) compiled.suffixes.push(new RegExp(`${escape(h)}(?:\\.[a-z]{2})?$`));
    else if (h.endsWith('.*')) compiled.domains.push(new RegExp(`(?:^|\\.)${escape(h.slice(0, -2))}\\.[a-z]{2,3}(?:\\.[a-z]{2})?$`));
    else if (h.includes('.')) compiled.domains.push(new RegExp(`(?:^|\\.)${escape(h)}$`));
    else compiled.words.push(h);
  }
  for (const hint of category.paths) {
    const h = normalizeText(hint);
    if (h.endsWith('*')) compiled.paths.push({ kind: 'prefix', value: h.slice(0, -1) });
    else if (h.includes('-')) compiled.paths.push({ kind: 'segment', value: h });
    else compiled.paths.push({ kind: 'word', value: h });
  }
  return compiled;
});

/** A URL's parts as the hints read them; null when it is not an http(s) URL. */
export interface UrlParts {
  host: string;
  /** Lower-case, decoded path segments without file extensions (`/News/Story.html` → `news`, `story`). */
  segments: string[];
  /** The words of those segments (`world-news` → `world`, `news`). */
  words: string[];
  /** Path and query as written, for the path patterns. */
  pathAndQuery: string;
}

export function parseUrl(raw: string, base?: string): UrlParts | null {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the encoded path
  }
  const segments = normalizeText(path)
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.replace(/\.(?:s?html?|php\d?|aspx?|jsp|cgi)$/, ''));
  const words = segments.flatMap((s) => tokenize(s).words);
  return {
    host: url.hostname
      .toLowerCase()
      .replace(/^www\d?\./, '')
      .replace(/\.$/, ''),
    segments,
    words,
    pathAndQuery: url.pathname + url.search,
  };
}

function hostMatches(c: CompiledCategory, host: string): { domain: boolean; suffix: boolean; word: boolean } {
  const dotted = `.${host}`;
  const suffix = c.suffixes.some((re) => re.test(dotted));
  const parts = host.split(/[.-]/);
  const word = c.words.some((w) => (w.length <= 3 ? parts.includes(w) : host.includes(w)));
  return { domain: c.domains.some((re) => re.test(host)), suffix, word };
}

function pathHintMatches(c: CompiledCategory, url: UrlParts): number {
  let n = 0;
  for (const hint of c.paths) {
    const hit =
      hint.kind === 'segment'
        ? url.segments.includes(hint.value)
        : hint.kind === 'prefix'
          ? url.words.some((w) => w.startsWith(hint.value))
          : url.words.some((w) => w === hint.value || w === `${hint.value}s`);
    if (hit) n++;
  }
  return n;
}

const patternMatches = (c: CompiledCategory, url: UrlParts): boolean => c.patterns.some((re) => re.test(url.pathAndQuery));

/** Evidence per category index from the page's own URL(s). */
export function pageUrlEvidence(urls: readonly UrlParts[]): number[] {
  return COMPILED.map((c) => {
    let best = 0;
    for (const url of urls) {
      const host = hostMatches(c, url.host);
      let points = (host.domain ? HOST_DOMAIN : 0) + (host.suffix ? HOST_SUFFIX : 0) + (host.word ? HOST_WORD : 0);
      points += Math.min(pathHintMatches(c, url), MAX_PATH_HINTS) * PATH_HINT;
      if (patternMatches(c, url)) points += PATH_PATTERN;
      best = Math.max(best, points);
    }
    return best;
  });
}

/** Evidence per category index from the page's links. */
export function linkEvidence(links: readonly UrlParts[]): number[] {
  return COMPILED.map((c) => {
    let n = 0;
    for (const link of links) if (pathHintMatches(c, link) > 0 || patternMatches(c, link)) n++;
    return n === 0 ? 0 : Math.min(LINK_CAP, LINK_WEIGHT * Math.log(1 + n));
  });
}
