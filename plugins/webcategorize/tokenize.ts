/**
 * Normalisation and tokenisation shared by the keyword matcher, the URL hints and the language detector.
 *
 * Decisions:
 *  - Matching form: NFKC (full-width Latin becomes ASCII, half-width katakana full-width), lower case, then
 *    the Latin/Greek/Cyrillic combining accents (U+0300–U+036F) are dropped, so `Élection`, `election` and
 *    `ÉLECTION` match one keyword. Only that block is stripped: the Japanese voicing marks (U+3099/U+309A)
 *    are kept, so `が` stays `が`. Letters that have no decomposition are folded by hand (ß→ss, æ→ae, œ→oe,
 *    ø→o, ł→l, đ/ð→d, þ→th, ı→i).
 *  - Words are runs of letters and digits of every script except Han, Hiragana and Katakana; an apostrophe,
 *    a hyphen or any punctuation splits (`l'économie` → `l`, `economie`). Numbers are words (`formula 1`,
 *    `ligue 1`); words longer than MAX_WORD_LENGTH (base64, hashes) are dropped.
 *  - Chinese and Japanese have no spaces between words: their runs are kept whole (`cjk`) and keywords in
 *    those scripts are found by substring (see keyword-matcher.ts), which needs no dictionary.
 */

export const MAX_WORD_LENGTH = 40;

const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const COMBINING_ACCENTS = /[\u0300-\u036f]/g;
const UNDECOMPOSABLE = /[ßæœøłđðþı]/g;

/** The matching form of a text: NFKC, lower case, accents stripped (see the decisions above). */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(COMBINING_ACCENTS, '')
    .replace(UNDECOMPOSABLE, (c) => FOLDED[c] ?? c)
    .normalize('NFC');
}

/** Han (with the iteration marks 々〆), Hiragana, Katakana and the prolonged sound mark ー. */
const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3005\\u3006\\u30fc';
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'gu');
const WORD = new RegExp(`(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}\\p{M}])+`, 'gu');
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u');

export interface Tokens {
  /** Normalised words in text order (every script but Chinese/Japanese). */
  words: string[];
  /** Normalised Chinese/Japanese runs, in text order. */
  cjk: string[];
}

/** Splits a text (any case, any accents) into normalised words and CJK runs. */
export function tokenize(text: string): Tokens {
  const normal = normalizeText(text);
  const words: string[] = [];
  for (const match of normal.matchAll(WORD)) {
    const word = match[0];
    if (word.length <= MAX_WORD_LENGTH) words.push(word);
  }
  const cjk = normal.match(CJK_RUN) ?? [];
  return { words, cjk };
}

/** True when the text holds a Chinese/Japanese character (such keywords are matched by substring). */
export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** How many times `needle` occurs in `haystack`, not overlapping. */
export function countOccurrences(haystack: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}
