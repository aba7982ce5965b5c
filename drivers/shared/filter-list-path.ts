import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AdFilterLists } from '../../core/config/ad-filter-lists.js';

/** The filter list kept in the repository (see drivers/brave/filters/LICENSE). */
export const FILTER_LIST_FILE = join('drivers', 'brave', 'filters', 'shotfarm-ads-trackers.txt');

/** The repository's supplement to AdGuard's Widgets list for block_chats (Intercom, Zendesk's messenger…; the file says why). */
export const CHATS_FILTER_LIST_FILE = join('drivers', 'brave', 'filters', 'shotfarm-chats.txt');

/**
 * Finds the repository's filter list from this module's location. tsc compiles to dist/ and does not
 * copy .txt files, so the list is found by walking up from here to the first folder that holds it:
 * the source tree when running from dist/, or the package root when installed.
 */
export function defaultFilterListPath(): string {
  return repositoryFilterListPath(FILTER_LIST_FILE);
}

/** The path of the chats supplement, found as defaultFilterListPath finds the ad list. */
export function chatsFilterListPath(): string {
  return repositoryFilterListPath(CHATS_FILTER_LIST_FILE);
}

function repositoryFilterListPath(file: string): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(folder, file);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`filter list ${file} not found above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
}

/** The files of SHOTFARM_AD_FILTER_LISTS: the built-in list's path in place of `builtin`, then the operator's files. */
export function filterListFiles(lists: AdFilterLists): string[] {
  return [...(lists.builtIn ? [defaultFilterListPath()] : []), ...lists.files];
}

/**
 * The text of `files` as one list for the engine to parse. Each file starts on a line of its own: a list
 * whose last line has no line break would otherwise run into the next list's first rule.
 */
export async function readFilterLists(files: readonly string[]): Promise<string> {
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
}

/**
 * Filter engines parsed once per process and set of list files (parsing is the expensive part), shared by
 * every page of every driver instance; a list that could not be read is not kept, so the next capture tries again.
 */
export class ParsedFilterLists<T> {
  private readonly engines = new Map<string, Promise<T>>();

  constructor(private readonly parse: (lists: string) => T) {}

  of(files: readonly string[]): Promise<T> {
    const key = files.join('\n');
    let engine = this.engines.get(key);
    if (!engine) {
      engine = readFilterLists(files).then(this.parse);
      engine.catch(() => this.engines.delete(key));
      this.engines.set(key, engine);
    }
    return engine;
  }
}
