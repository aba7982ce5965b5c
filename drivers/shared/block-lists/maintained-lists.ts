import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dnrToFilters, type DnrRule } from './dnr-filters.js';

/** The categories a capture can block from maintained lists, in the order a request is counted in (beyond-v1.md part 6). */
export const LIST_CATEGORIES = ['chats', 'social', 'trackers', 'ads'] as const;
export type ListCategory = (typeof LIST_CATEGORIES)[number];

/**
 * AdGuard's filter lists behind each category, by their filter ids in @adguard/dnr-rulesets
 * (dist/filters/filters_i18n.json names them): Widgets (chat and support bubbles, 22), Social media
 * (share buttons, like boxes, embedded posts, 4), Tracking Protection (analytics scripts and pixels, 3),
 * Base (ads, 2). `ads` adds the lists of SHOTFARM_AD_FILTER_LISTS (maintained-engines.ts).
 */
export const CATEGORY_RULESETS: Record<ListCategory, readonly number[]> = { chats: [22], social: [4], trackers: [3], ads: [2] };

/**
 * The folder of the package's rule sets, found through Node's resolution (it may be hoisted anywhere
 * above): the package exports only its ES module (dist/lib/index.js), next to dist/filters/.
 */
function rulesetFolder(): string {
  const main = fileURLToPath(import.meta.resolve('@adguard/dnr-rulesets'));
  return join(dirname(main), '..', 'filters', 'declarative');
}

/** The filter lines of AdGuard's rule set `id` (Adblock Plus syntax, see dnr-filters.ts). */
export async function rulesetFilters(id: number): Promise<string[]> {
  const file = join(rulesetFolder(), `ruleset_${id}`, `ruleset_${id}.json`);
  const rules = JSON.parse(await readFile(file, 'utf8')) as DnrRule[];
  return dnrToFilters(rules).filters;
}
