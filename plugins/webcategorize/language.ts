import { normalizeText, tokenize } from './tokenize.js';

/**
 * The page's language as an ISO 639-1 code ('' when unknown).
 *
 * Decisions, in order:
 *  1. Declared: `<html lang>` (else `<meta http-equiv=content-language>`) when its primary subtag is a
 *     two-letter code (`en-GB` → `en`, `zh-Hant-TW` → `zh`); the deprecated `iw`, `in`, `ji` become `he`,
 *     `id`, `yi`, and `cmn`/`yue` become `zh`. Anything else (`und`, `x-default`, three-letter codes) is
 *     ignored and the text decides.
 *  2. Script: letters are counted by script (Han and kana count SCRIPT_CJK_WEIGHT each: one such character
 *     carries about as much text as a word's letters). When a non-Latin script has the most, it names the
 *     language: kana among the Han/kana characters (≥ KANA_SHARE) → `ja`, else Han → `zh`; Hangul → `ko`;
 *     Cyrillic → `uk` when the Ukrainian-only letters і ї є ґ show up, else `ru`; Greek → `el`;
 *     Arabic → `fa` with the Persian-only letters پ چ ژ گ, else `ar`; Hebrew → `he`; Thai → `th`;
 *     Devanagari → `hi`.
 *  3. Latin script: stopword counts for en, fr, de, es, it, pt, nl, pl, sv. A stopword shared by k of
 *     those languages counts 1/k (`de` is Spanish, Portuguese, French and Dutch; `the` is only English),
 *     so the distinctive words decide. The best language needs MIN_STOPWORD_SCORE and a lead of
 *     STOPWORD_MARGIN over the second, else the answer is '' (a page of product names has no grammar).
 */

export const KANA_SHARE = 0.1;
export const SCRIPT_CJK_WEIGHT = 2.5;
export const MIN_STOPWORD_SCORE = 3;
export const STOPWORD_MARGIN = 1.3;
const MIN_LETTERS = 12;
const MAX_SAMPLE_CHARS = 200_000;

/** The function words each Latin-script language is told apart by (written as usual: accents are stripped on load). */
export const STOPWORDS: Record<string, readonly string[]> = {
  en: [
    'the',
    'a',
    'and',
    'of',
    'to',
    'is',
    'that',
    'for',
    'it',
    'with',
    'was',
    'on',
    'are',
    'be',
    'this',
    'by',
    'from',
    'at',
    'or',
    'an',
    'have',
    'not',
    'you',
    'your',
    'we',
    'our',
    'they',
    'their',
    'has',
    'but',
    'which',
    'will',
    'can',
    'about',
    'more',
    'been',
    'were',
    'would',
    'what',
    'when',
    'who',
    'its',
    'into',
    'than',
    'there',
    'these',
    'also',
  ],
  fr: [
    'le',
    'la',
    'les',
    'des',
    'du',
    'et',
    'est',
    'un',
    'une',
    'dans',
    'pour',
    'que',
    'qui',
    'pas',
    'sur',
    'au',
    'aux',
    'avec',
    'ce',
    'cette',
    'il',
    'elle',
    'nous',
    'vous',
    'sont',
    'par',
    'plus',
    'mais',
    'ou',
    'ses',
    'leur',
    'été',
    'être',
    'ont',
    'ai',
    'car',
    'sa',
    'son',
    'ces',
    'aussi',
    'comme',
    'selon',
    'lors',
    'après',
    'où',
    'dont',
  ],
  de: [
    'der',
    'die',
    'das',
    'und',
    'ist',
    'nicht',
    'ein',
    'eine',
    'einen',
    'einer',
    'dem',
    'den',
    'des',
    'mit',
    'auf',
    'für',
    'von',
    'zu',
    'sich',
    'auch',
    'es',
    'im',
    'sie',
    'wir',
    'ich',
    'wird',
    'werden',
    'sind',
    'aus',
    'bei',
    'nach',
    'oder',
    'noch',
    'wie',
    'über',
    'dass',
    'hat',
    'nur',
    'wurde',
    'kann',
    'zum',
    'zur',
    'vom',
    'sein',
    'haben',
  ],
  es: [
    'el',
    'la',
    'los',
    'las',
    'de',
    'del',
    'y',
    'que',
    'en',
    'un',
    'una',
    'es',
    'por',
    'para',
    'con',
    'se',
    'no',
    'al',
    'lo',
    'como',
    'más',
    'pero',
    'sus',
    'su',
    'este',
    'esta',
    'son',
    'fue',
    'ha',
    'también',
    'entre',
    'muy',
    'sin',
    'sobre',
    'hasta',
    'desde',
    'cuando',
    'donde',
    'porque',
    'nos',
    'ya',
    'hay',
    'han',
    'ser',
    'está',
  ],
  it: [
    'il',
    'lo',
    'la',
    'gli',
    'le',
    'di',
    'del',
    'della',
    'che',
    'e',
    'è',
    'un',
    'una',
    'per',
    'con',
    'non',
    'sono',
    'nel',
    'nella',
    'al',
    'alla',
    'da',
    'dei',
    'delle',
    'si',
    'anche',
    'più',
    'questo',
    'questa',
    'come',
    'ma',
    'ha',
    'essere',
    'degli',
    'sul',
    'sulla',
    'dalla',
    'anni',
    'stato',
    'ci',
    'ancora',
    'dopo',
    'quando',
    'perché',
  ],
  pt: [
    'o',
    'a',
    'os',
    'as',
    'de',
    'do',
    'da',
    'dos',
    'das',
    'e',
    'que',
    'em',
    'um',
    'uma',
    'para',
    'com',
    'não',
    'no',
    'na',
    'nos',
    'nas',
    'se',
    'por',
    'mais',
    'como',
    'mas',
    'foi',
    'ao',
    'ele',
    'ela',
    'são',
    'também',
    'seu',
    'sua',
    'pelo',
    'pela',
    'já',
    'está',
    'muito',
    'isso',
    'quando',
    'ou',
    'entre',
    'depois',
    'sobre',
  ],
  nl: [
    'de',
    'het',
    'een',
    'en',
    'van',
    'in',
    'is',
    'dat',
    'op',
    'te',
    'zijn',
    'voor',
    'met',
    'niet',
    'die',
    'aan',
    'er',
    'maar',
    'om',
    'ook',
    'als',
    'bij',
    'of',
    'dan',
    'nog',
    'wordt',
    'worden',
    'naar',
    'deze',
    'uit',
    'heeft',
    'wij',
    'ze',
    'zij',
    'hij',
    'ik',
    'je',
    'kan',
    'wat',
    'meer',
    'werd',
    'door',
    'tot',
    'geen',
    'hebben',
  ],
  pl: [
    'i',
    'w',
    'z',
    'na',
    'się',
    'nie',
    'do',
    'to',
    'że',
    'jest',
    'o',
    'jak',
    'co',
    'ale',
    'po',
    'od',
    'za',
    'dla',
    'przez',
    'jego',
    'ich',
    'jej',
    'być',
    'tylko',
    'oraz',
    'już',
    'czy',
    'tak',
    'są',
    'ten',
    'tym',
    'tej',
    'może',
    'także',
    'gdy',
    'został',
    'była',
    'było',
    'jako',
    'ze',
    'pod',
    'przy',
    'który',
    'która',
    'które',
  ],
  sv: [
    'och',
    'i',
    'att',
    'det',
    'som',
    'en',
    'på',
    'är',
    'av',
    'för',
    'med',
    'till',
    'den',
    'har',
    'de',
    'inte',
    'om',
    'ett',
    'men',
    'var',
    'sig',
    'så',
    'vi',
    'kan',
    'jag',
    'ska',
    'eller',
    'från',
    'efter',
    'när',
    'också',
    'hade',
    'vid',
    'under',
    'sina',
    'sin',
    'detta',
    'blev',
    'bara',
    'vara',
    'mot',
    'alla',
    'andra',
    'skulle',
    'där',
  ],
};

/** Stopword → the weight it adds to each language holding it (1/k). */
const STOPWORD_INDEX: Map<string, Map<string, number>> = (() => {
  const holders = new Map<string, Set<string>>();
  for (const [lang, words] of Object.entries(STOPWORDS)) {
    for (const word of words) {
      const key = normalizeText(word);
      const set = holders.get(key) ?? new Set<string>();
      set.add(lang);
      holders.set(key, set);
    }
  }
  const index = new Map<string, Map<string, number>>();
  for (const [word, langs] of holders) index.set(word, new Map([...langs].map((l) => [l, 1 / langs.size])));
  return index;
})();

/** The normalised stopwords of one language (the matcher skips them as English keywords on such pages). */
export function stopwordsOf(language: string): ReadonlySet<string> {
  const words = STOPWORDS[language];
  return new Set((words ?? []).map(normalizeText));
}

const LEGACY_CODES: Record<string, string> = { iw: 'he', in: 'id', ji: 'yi', jw: 'jv', cmn: 'zh', yue: 'zh' };

/** The ISO 639-1 code of a declared language tag, or '' when it names none. */
export function languageFromTag(tag: string): string {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const code = LEGACY_CODES[primary] ?? primary;
  return /^[a-z]{2}$/.test(code) ? code : '';
}

const SCRIPTS: { name: string; re: RegExp; weight: number }[] = [
  { name: 'latin', re: /\p{Script=Latin}/gu, weight: 1 },
  { name: 'han', re: /\p{Script=Han}/gu, weight: SCRIPT_CJK_WEIGHT },
  { name: 'kana', re: /[\p{Script=Hiragana}\p{Script=Katakana}]/gu, weight: SCRIPT_CJK_WEIGHT },
  { name: 'hangul', re: /\p{Script=Hangul}/gu, weight: 1 },
  { name: 'cyrillic', re: /\p{Script=Cyrillic}/gu, weight: 1 },
  { name: 'greek', re: /\p{Script=Greek}/gu, weight: 1 },
  { name: 'arabic', re: /\p{Script=Arabic}/gu, weight: 1 },
  { name: 'hebrew', re: /\p{Script=Hebrew}/gu, weight: 1 },
  { name: 'thai', re: /\p{Script=Thai}/gu, weight: 1 },
  { name: 'devanagari', re: /\p{Script=Devanagari}/gu, weight: 1 },
];

const count = (text: string, re: RegExp): number => text.match(re)?.length ?? 0;

/** The language named by the dominant non-Latin script, 'latin' when Latin leads, '' when there are too few letters. */
export function languageFromScript(text: string): string {
  const sample = text.slice(0, MAX_SAMPLE_CHARS);
  const counts = new Map(SCRIPTS.map((s) => [s.name, count(sample, s.re)]));
  const letters = [...counts.values()].reduce((a, b) => a + b, 0);
  if (letters < MIN_LETTERS) return '';
  const han = counts.get('han') as number;
  const kana = counts.get('kana') as number;
  const weighted = new Map<string, number>(SCRIPTS.map((s) => [s.name, (counts.get(s.name) as number) * s.weight]));
  weighted.set('cjk', (han + kana) * SCRIPT_CJK_WEIGHT);
  weighted.delete('han');
  weighted.delete('kana');
  const [top] = [...weighted.entries()].sort((a, b) => b[1] - a[1]);
  switch (top?.[0]) {
    case 'cjk':
      return kana / (han + kana) >= KANA_SHARE ? 'ja' : 'zh';
    case 'hangul':
      return 'ko';
    case 'cyrillic':
      return /[іїєґ]/iu.test(sample) ? 'uk' : 'ru';
    case 'greek':
      return 'el';
    case 'arabic':
      return /[پچژگ]/u.test(sample) ? 'fa' : 'ar';
    case 'hebrew':
      return 'he';
    case 'thai':
      return 'th';
    case 'devanagari':
      return 'hi';
    default:
      return 'latin';
  }
}

/** The Latin-script language with the best stopword score, or '' when none leads clearly. */
export function languageFromStopwords(words: readonly string[]): string {
  const scores = new Map<string, number>();
  for (const word of words) {
    const holders = STOPWORD_INDEX.get(word);
    if (holders) for (const [lang, weight] of holders) scores.set(lang, (scores.get(lang) ?? 0) + weight);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[1] < MIN_STOPWORD_SCORE) return '';
  if (second && best[1] < second[1] * STOPWORD_MARGIN) return '';
  return best[0];
}

/** The page's language: declared, else from its script, else from its stopwords ('' when unknown). */
export function detectLanguage(declared: string, text: string): string {
  const fromTag = languageFromTag(declared);
  if (fromTag) return fromTag;
  const script = languageFromScript(text);
  if (script !== 'latin') return script;
  return languageFromStopwords(tokenize(text.slice(0, MAX_SAMPLE_CHARS)).words);
}
