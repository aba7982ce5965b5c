/**
 * The parsers settings are declared with (settings.ts). A parser takes the trimmed text of one variable
 * and returns its value, or throws InvalidSetting with what is wrong; the loader prefixes each problem
 * with the setting's name. A declared default is parsed by the same parser, so it cannot drift.
 */

/** What is wrong with one setting's text (one line per problem, without the setting's name). */
export class InvalidSetting extends Error {
  constructor(public readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'InvalidSetting';
  }
}

export type Parser<T> = (text: string) => T;

const fail = (problem: string): never => {
  throw new InvalidSetting([problem]);
};

/** "a or b", or "one of a, b, c" for longer lists: how a choice is named in a problem. */
const choices = (values: readonly string[]): string => (values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`);

export const text: Parser<string> = (v) => v;

export const wholeNumber =
  (min: number, max: number): Parser<number> =>
  (v) =>
    /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? Number(v) : fail(`must be a whole number from ${min} to ${max} (got "${v}")`);

/** A number with optional decimals (no sign, no exponent). */
export const decimalNumber =
  (min: number, max: number): Parser<number> =>
  (v) =>
    /^\d+(\.\d+)?$/.test(v) && Number(v) >= min && Number(v) <= max ? Number(v) : fail(`must be a number from ${min} to ${max} (got "${v}")`);

const BOOLEAN_WORDS: Record<string, boolean> = { '1': true, true: true, yes: true, on: true, '0': false, false: false, no: false, off: false };

export const boolean: Parser<boolean> = (v) => BOOLEAN_WORDS[v.toLowerCase()] ?? fail(`must be true or false (got "${v}")`);

/** A URL with one of `protocols` (each with its colon: 'https:'); kept as written. */
export const url =
  (protocols: readonly string[]): Parser<string> =>
  (v) => {
    let protocol: string | null = null;
    try {
      protocol = new URL(v).protocol;
    } catch {
      // not a URL at all: the same problem as a wrong protocol
    }
    return protocol !== null && protocols.includes(protocol) ? v : fail(`must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${v}")`);
  };

/** An HTTP(S) base URL, kept without trailing slashes: each consumer joins its paths to it. */
export const baseUrl: Parser<string> = (v) => url(['http:', 'https:'])(v).replace(/\/+$/, '');

/** One of a fixed set of words, case-insensitive; the value is lower case. */
export const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (v) => {
    const lower = v.toLowerCase();
    return (values as readonly string[]).includes(lower) ? (lower as T) : fail(`must be ${choices(values)} (got "${v}")`);
  };

/** Text matching `pattern`, else the problem `must be …`. */
export const matching =
  (pattern: RegExp, mustBe: string): Parser<string> =>
  (v) =>
    pattern.test(v) ? v : fail(`must be ${mustBe} (got "${v}")`);

/**
 * A comma list, entries trimmed and lower case, empty entries dropped; `problemOf` names what is wrong
 * with one entry (null: nothing), and every bad entry is named.
 */
export const list =
  (problemOf: (entry: string) => string | null = () => null, lowerCase = true): Parser<string[]> =>
  (v) => {
    const entries = v
      .split(',')
      .map((x) => (lowerCase ? x.trim().toLowerCase() : x.trim()))
      .filter(Boolean);
    const problems = entries.map((e) => problemOf(e)).filter((p): p is string => p !== null);
    if (problems.length > 0) throw new InvalidSetting(problems);
    return entries;
  };
