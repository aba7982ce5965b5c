import { classify, type Basis, type CategoryScore, type PartName } from './classify.js';
import { detectLanguage } from './language.js';
import { extractPageText, type PageText } from './page-text.js';
import { tokenize, type Tokens } from './tokenize.js';
import { MAX_LINKS, parseUrl, type UrlParts } from './url-signals.js';

/**
 * The whole classification of one page, without I/O: HTML (or none), the URLs and the links in, the
 * app's output_data out. webcategorize-app.ts reads the inputs from the run context.
 *
 * Decisions:
 *  - basis is `html` when the HTML had any text (title, meta, headings or body); otherwise (no HTML file,
 *    an empty page, a page that is only scripts) it is `url-and-links` and scores are lower (classify.ts).
 *  - Links are the record's `links` (absolute URLs found in the rendered page); when the record has none,
 *    the `<a href>`s of the HTML, resolved against the final URL.
 *  - Scores are rounded to 3 decimals; a category is returned when its rounded score is above 0 and at
 *    least `minScore`, best first, at most `maxCategories`. No confident category → an empty list.
 */

export interface CategorizeInput {
  html: string | null;
  url: string;
  finalUrl: string;
  links: readonly string[];
}

export interface CategorizeOptions {
  maxCategories: number;
  minScore: number;
}

export interface CategorizeResult {
  categories: CategoryScore[];
  language: string;
  basis: Basis;
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

function textParts(page: PageText): { name: PartName; tokens: Tokens }[] {
  const parts: [PartName, string][] = [
    ['title', page.title],
    ['description', page.description],
    ['keywords', page.keywords],
    ['h1', page.h1],
    ['headings', page.headings],
    ['body', page.body],
    ['navigation', page.navigation],
  ];
  return parts.filter(([, text]) => text !== '').map(([name, text]) => ({ name, tokens: tokenize(text) }));
}

function urlTokens(url: UrlParts | undefined): Tokens {
  return url ? tokenize(url.segments.join(' ')) : { words: [], cjk: [] };
}

export function categorize(input: CategorizeInput, options: CategorizeOptions): CategorizeResult {
  const page = input.html === null ? null : extractPageText(input.html);
  const parts = page ? textParts(page) : [];
  const hasText = parts.some((p) => p.tokens.words.length > 0 || p.tokens.cjk.length > 0);
  const basis: Basis = hasText ? 'html' : 'url-and-links';

  const languageText = page ? [page.title, page.description, page.h1, page.headings, page.body, page.navigation].join('\n') : '';
  const language = page ? detectLanguage(page.declaredLanguage, languageText) : '';

  const primary = input.finalUrl || input.url;
  const pageUrls = [...new Set([input.finalUrl, input.url].filter((u) => u !== ''))].map((u) => parseUrl(u)).filter((u): u is UrlParts => u !== null);
  const linkSource = input.links.length > 0 ? input.links : (page?.links ?? []);
  const links = [...new Set(linkSource)]
    .slice(0, MAX_LINKS)
    .map((l) => parseUrl(l, primary || undefined))
    .filter((u): u is UrlParts => u !== null);

  const classification = classify({
    parts: [...parts, { name: 'url', tokens: urlTokens(pageUrls[0]) }],
    pageUrls,
    links,
    structuredTypes: page?.structuredTypes ?? [],
    language,
    basis,
  });

  const categories = classification.scores
    .map((s) => ({ name: s.name, score: round3(s.score) }))
    .filter((s) => s.score > 0 && s.score >= options.minScore)
    .slice(0, options.maxCategories);
  return { categories, language, basis };
}
