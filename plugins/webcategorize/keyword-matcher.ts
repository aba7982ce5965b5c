import { stopwordsOf } from './language.js';
import { ENGLISH_FALSE_FRIENDS, KEYWORD_LANGUAGES, TAXONOMY, type KeywordLanguage, type KeywordWeight } from './taxonomy.js';
import { countOccurrences, hasCjk, normalizeText, tokenize, type Tokens } from './tokenize.js';

/**
 * Finds the taxonomy's keywords in tokenised text and counts the hits of each term.
 *
 * Decisions:
 *  - The taxonomy is compiled once, at load, into lookup tables: exact words, prefixes (`word*`), phrases
 *    (keyed by their first word) and Chinese/Japanese terms (found by substring). A malformed keyword (no
 *    word in it, a prefix shorter than MIN_PREFIX, a prefix phrase) throws at load: the tests catch it.
 *  - A term listed twice for one category (`hotel` in English and German) is one term with both languages.
 *  - One word counts at most once per category: the category's heaviest term it matches (`recipes` is
 *    `recipe`, not also `recipe*`). A word ending in `s` also tries the word without it (plurals).
 *    A phrase counts on top of its words (`breaking news` is more news than `news`).
 *  - Languages: English terms and the page language's terms apply; all languages when it is unknown;
 *    English only when the page is in a language the taxonomy has no keywords for. On a page in language
 *    L, a word that is a stopword or an English false friend of L only matches L's own terms.
 */

export const MIN_PREFIX = 4;

export interface Term {
  id: number;
  category: number;
  /** The term's weight in each language that lists it (`games`: English 2, Dutch 3). */
  weights: ReadonlyMap<KeywordLanguage, KeywordWeight>;
  /** The normalised term, as written (`recipe*`, `add to cart`, `レシピ`). */
  text: string;
}

interface Phrase {
  rest: readonly string[];
  term: Term;
}

interface KeywordIndex {
  terms: Term[];
  exact: Map<string, Term[]>;
  prefixes: Map<string, Term[]>;
  prefixLengths: number[];
  phrases: Map<string, Phrase[]>;
  cjk: Term[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function buildIndex(): KeywordIndex {
  const index: KeywordIndex = { terms: [], exact: new Map(), prefixes: new Map(), prefixLengths: [], phrases: new Map(), cjk: [] };
  const byKey = new Map<string, Term & { weights: Map<KeywordLanguage, KeywordWeight> }>();
  const lengths = new Set<number>();
  TAXONOMY.forEach((category, c) => {
    for (const language of KEYWORD_LANGUAGES) {
      const weighted = category.keywords[language] ?? {};
      for (const weight of [3, 2, 1] as const) {
        for (const raw of weighted[weight] ?? []) {
          const isPrefix = raw.endsWith('*');
          const body = isPrefix ? raw.slice(0, -1) : raw;
          let text: string;
          let kind: 'cjk' | 'exact' | 'prefix' | 'phrase';
          let words: string[] = [];
          if (hasCjk(body)) {
            text = normalizeText(body).replace(/\s+/g, '');
            kind = 'cjk';
          } else {
            words = tokenize(body).words;
            if (words.length === 0) throw new Error(`taxonomy ${category.name}/${language}: "${raw}" has no word`);
            if (isPrefix && (words.length > 1 || (words[0] as string).length < MIN_PREFIX)) {
              throw new Error(`taxonomy ${category.name}/${language}: prefix "${raw}" must be one word of ${MIN_PREFIX}+ letters`);
            }
            kind = isPrefix ? 'prefix' : words.length > 1 ? 'phrase' : 'exact';
            text = words.join(' ') + (isPrefix ? '*' : '');
          }
          const key = `${c}\u0000${text}`;
          const known = byKey.get(key);
          if (known) {
            if (weight > (known.weights.get(language) ?? 0)) known.weights.set(language, weight);
            continue;
          }
          const term = { id: index.terms.length, category: c, weights: new Map([[language, weight]]), text };
          byKey.set(key, term);
          index.terms.push(term);
          if (kind === 'cjk') index.cjk.push(term);
          else if (kind === 'exact') push(index.exact, words[0] as string, term);
          else if (kind === 'phrase') push(index.phrases, words[0] as string, { rest: words.slice(1), term });
          else {
            push(index.prefixes, words[0] as string, term);
            lengths.add((words[0] as string).length);
          }
        }
      }
    }
  });
  index.prefixLengths = [...lengths].sort((a, b) => a - b);
  return index;
}

const INDEX = buildIndex();

/** Every compiled term (for the tests and the README's counts). */
export function allTerms(): readonly Term[] {
  return INDEX.terms;
}

/** Which terms apply on a page in `language` ('' = unknown), and with which weight. */
export interface LanguageFilter {
  language: string;
  /** The languages whose terms apply. */
  languages: ReadonlySet<KeywordLanguage>;
  /** Words that, on this page, match only terms of the page language (its stopwords and English false friends). */
  reserved: ReadonlySet<string>;
}

export function languageFilter(language: string): LanguageFilter {
  if (language === '') return { language, languages: new Set(KEYWORD_LANGUAGES), reserved: new Set() };
  const own = language as KeywordLanguage;
  const covered = KEYWORD_LANGUAGES.includes(own);
  const languages = new Set<KeywordLanguage>(covered ? ['en', own] : ['en']);
  if (language === 'en') return { language, languages, reserved: new Set() };
  const reserved = new Set([...stopwordsOf(language), ...(ENGLISH_FALSE_FRIENDS[own] ?? []).map(normalizeText)]);
  return { language, languages, reserved };
}

/** A term's weight on a page under `filter`: its heaviest weight among the languages that apply (0 = none). */
export function termWeight(term: Term, filter: LanguageFilter, reservedWord = false): number {
  if (reservedWord) return filter.languages.has(filter.language as KeywordLanguage) ? (term.weights.get(filter.language as KeywordLanguage) ?? 0) : 0;
  let weight = 0;
  for (const [language, w] of term.weights) if (w > weight && filter.languages.has(language)) weight = w;
  return weight;
}

/** Term id → number of hits in the tokens. */
export function countTerms(tokens: Tokens, filter: LanguageFilter): Map<number, number> {
  const hits = new Map<number, number>();
  const add = (term: Term): void => {
    hits.set(term.id, (hits.get(term.id) ?? 0) + 1);
  };
  const { words } = tokens;
  const best = new Map<number, { term: Term; weight: number }>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const reserved = filter.reserved.has(word);
    best.clear();
    const consider = (terms: Term[] | undefined): void => {
      if (!terms) return;
      for (const term of terms) {
        const weight = termWeight(term, filter, reserved);
        if (weight === 0) continue;
        const current = best.get(term.category);
        if (!current || weight > current.weight) best.set(term.category, { term, weight });
      }
    };
    consider(INDEX.exact.get(word));
    if (word.length >= 4 && word.endsWith('s')) consider(INDEX.exact.get(word.slice(0, -1)));
    for (const length of INDEX.prefixLengths) {
      if (length > word.length) break;
      consider(INDEX.prefixes.get(word.slice(0, length)));
    }
    for (const { term } of best.values()) add(term);

    for (const phrase of INDEX.phrases.get(word) ?? []) {
      if (termWeight(phrase.term, filter, reserved) === 0) continue;
      let matched = true;
      for (let k = 0; k < phrase.rest.length; k++) {
        const next = words[i + 1 + k];
        const want = phrase.rest[k] as string;
        if (next !== want && !(k === phrase.rest.length - 1 && next === `${want}s`)) {
          matched = false;
          break;
        }
      }
      if (matched) add(phrase.term);
    }
  }
  if (tokens.cjk.length > 0) {
    const text = tokens.cjk.join('\n');
    for (const term of INDEX.cjk) {
      if (termWeight(term, filter) === 0) continue;
      const n = countOccurrences(text, term.text);
      if (n > 0) hits.set(term.id, (hits.get(term.id) ?? 0) + n);
    }
  }
  return hits;
}

/** The compiled term with this id. */
export function termById(id: number): Term {
  return INDEX.terms[id] as Term;
}
