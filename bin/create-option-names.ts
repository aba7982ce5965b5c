import { BATCH_OWN_PARAMS } from '../api/batches/batch-params.js';
import { CREATE_PARAMS, STRUCTURED_CREATE_PARAMS } from '../api/options/create-params.js';

/** Every option a screenshot create takes, from its parameter table (the one owner of that list). */
export const CREATE_OPTION_NAMES: readonly string[] = [...Object.keys(CREATE_PARAMS), ...STRUCTURED_CREATE_PARAMS];

/** What a batch create takes: its own fields and every screenshot option. */
export const BATCH_OPTION_NAMES: readonly string[] = [...Object.keys(BATCH_OWN_PARAMS), ...CREATE_OPTION_NAMES];

/** Edits (insert, delete, replace, swap two neighbours) turning a into b. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The known name closest to a mistyped one, when it is close enough to be what was meant: at most one
 * edit in four characters (`sise` → `size`, `screenwidth` → `screen_width`), else null.
 */
export function closestName(name: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const k of known) {
    const distance = editDistance(name.toLowerCase(), k);
    if (!best || distance < best.distance) best = { name: k, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(name.length / 4)) ? best.name : null;
}

/** The names in `given` no table knows, each with the name probably meant. */
export function unknownOptions(given: readonly string[], known: readonly string[]): { name: string; meant: string | null }[] {
  return given.filter((n) => !known.includes(n)).map((name) => ({ name, meant: closestName(name, known) }));
}
