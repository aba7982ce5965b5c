import { countTerms, languageFilter, termById, termWeight } from './keyword-matcher.js';
import { TAXONOMY } from './taxonomy.js';
import type { Tokens } from './tokenize.js';
import { linkEvidence, pageUrlEvidence, type UrlParts } from './url-signals.js';

/**
 * Turns the page's signals into one score per category, 0..1.
 *
 * Decisions:
 *  - Text evidence: in each part, each matched term adds weight × PART_WEIGHTS[part] × saturate(hits),
 *    saturate(n) = min(1 + ln n, SATURATION_CAP): the 2nd hit of a word adds 0.69, the 5th 0.22, and every
 *    one after the 8th nothing, so one repeated word cannot carry a page; many different words of a topic can.
 *  - Structured data: each schema.org / og:type type mapped to a category adds TYPE_WEIGHT (at most
 *    MAX_TYPES_PER_CATEGORY types a category). URL and link evidence come from url-signals.ts.
 *  - Scores: with S the category's evidence and ΣS all categories' together,
 *        score = (1 − e^(−S / EVIDENCE_SCALE)) × √(S / ΣS)
 *    The first factor is how much evidence there is at all (a lone keyword in the body gives 0.1–0.2, a
 *    page about the topic close to 1); the second is how much of the page's evidence is this category (a page that is
 *    half news, half politics has both at ~0.7× their strength; a portal that touches everything has none
 *    high). Without page text (basis `url-and-links`) scores are multiplied by URL_ONLY_CONFIDENCE.
 */

export type PartName = 'title' | 'description' | 'keywords' | 'h1' | 'headings' | 'body' | 'navigation' | 'url';
export type Basis = 'html' | 'url-and-links';

export const PART_WEIGHTS: Readonly<Record<PartName, number>> = { title: 3, description: 2, keywords: 1.5, h1: 2.5, headings: 1.5, body: 1, navigation: 0.5, url: 1.5 };
export const SATURATION_CAP = 3;
export const TYPE_WEIGHT = 6;
export const MAX_TYPES_PER_CATEGORY = 2;
export const EVIDENCE_SCALE = 12;
export const URL_ONLY_CONFIDENCE = 0.7;

export interface ClassifierInput {
  parts: readonly { name: PartName; tokens: Tokens }[];
  pageUrls: readonly UrlParts[];
  links: readonly UrlParts[];
  structuredTypes: readonly string[];
  /** ISO 639-1 code of the page, '' when unknown (decides which keyword languages apply). */
  language: string;
  basis: Basis;
}

export interface CategoryScore {
  name: string;
  score: number;
}

export interface Classification {
  /** Every category with evidence, best first, scores unrounded. */
  scores: CategoryScore[];
  /** Raw evidence per category, in taxonomy order (for tests and tuning). */
  evidence: number[];
}

export const saturate = (hits: number): number => (hits <= 0 ? 0 : Math.min(1 + Math.log(hits), SATURATION_CAP));

const TYPE_INDEX: Map<string, number[]> = (() => {
  const index = new Map<string, number[]>();
  TAXONOMY.forEach((category, c) => {
    for (const type of category.types) {
      const key = type.toLowerCase();
      index.set(key, [...(index.get(key) ?? []), c]);
    }
  });
  return index;
})();

/** Evidence per category from the structured types. */
export function typeEvidence(types: readonly string[]): number[] {
  const counts = new Array<number>(TAXONOMY.length).fill(0);
  for (const type of new Set(types.map((t) => t.toLowerCase()))) {
    for (const c of TYPE_INDEX.get(type) ?? []) counts[c] = (counts[c] as number) + 1;
  }
  return counts.map((n) => Math.min(n, MAX_TYPES_PER_CATEGORY) * TYPE_WEIGHT);
}

/** Evidence per category from the text parts. */
export function textEvidence(parts: ClassifierInput['parts'], language: string): number[] {
  const evidence = new Array<number>(TAXONOMY.length).fill(0);
  const filter = languageFilter(language);
  for (const part of parts) {
    for (const [id, hits] of countTerms(part.tokens, filter)) {
      const term = termById(id);
      evidence[term.category] = (evidence[term.category] as number) + termWeight(term, filter) * PART_WEIGHTS[part.name] * saturate(hits);
    }
  }
  return evidence;
}

export function classify(input: ClassifierInput): Classification {
  const text = textEvidence(input.parts, input.language);
  const url = pageUrlEvidence(input.pageUrls);
  const links = linkEvidence(input.links);
  const types = typeEvidence(input.structuredTypes);
  const evidence = TAXONOMY.map((_, c) => (text[c] as number) + (url[c] as number) + (links[c] as number) + (types[c] as number));
  const total = evidence.reduce((a, b) => a + b, 0);
  const confidence = input.basis === 'html' ? 1 : URL_ONLY_CONFIDENCE;
  const scores: CategoryScore[] = [];
  TAXONOMY.forEach((category, c) => {
    const s = evidence[c] as number;
    if (s <= 0) return;
    const strength = 1 - Math.exp(-s / EVIDENCE_SCALE);
    scores.push({ name: category.name, score: strength * Math.sqrt(s / total) * confidence });
  });
  scores.sort((a, b) => b.score - a.score);
  return { scores, evidence };
}
