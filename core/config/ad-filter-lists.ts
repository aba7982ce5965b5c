import fs from 'node:fs';
import path from 'node:path';
import { InvalidSetting } from './setting-parsers.js';

/** The word that names the filter list shipped in the repository (drivers/brave/filters) in SHOTFARM_AD_FILTER_LISTS. */
export const BUILT_IN_AD_FILTER_LIST = 'builtin';

/**
 * The filter lists hide_ads and brave's shields emulation block with: the shipped list (`builtIn`) and
 * files in Adblock Plus syntax an operator adds (EasyList, EasyPrivacy snapshots), as absolute paths.
 */
export interface AdFilterLists {
  builtIn: boolean;
  files: string[];
}

/**
 * Reads SHOTFARM_AD_FILTER_LISTS at start-up (its parser in settings.ts): a comma list of `builtin` and
 * file paths, each file checked to be a readable file now, so that a typo stops the process instead of
 * every hide_ads capture failing later.
 */
export function parseAdFilterLists(text: string): AdFilterLists {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new InvalidSetting([`must name at least one filter list (${BUILT_IN_AD_FILTER_LIST} or a file)`]);
  const problems: string[] = [];
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.toLowerCase() === BUILT_IN_AD_FILTER_LIST) continue;
    const file = path.resolve(entry);
    const problem = unreadable(file);
    if (problem) problems.push(`cannot read the filter list ${file} (${problem})`);
    else files.push(file);
  }
  if (problems.length > 0) throw new InvalidSetting(problems);
  return { builtIn: entries.some((entry) => entry.toLowerCase() === BUILT_IN_AD_FILTER_LIST), files: [...new Set(files)] };
}

/** Why `file` cannot be read as a list (an error code, or "a folder"), or null when it can. */
function unreadable(file: string): string | null {
  try {
    if (!fs.statSync(file).isFile()) return 'not a file';
    fs.accessSync(file, fs.constants.R_OK);
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}
