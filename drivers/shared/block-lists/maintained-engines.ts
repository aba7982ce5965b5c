import { FiltersEngine } from '@ghostery/adblocker';
import { chatsFilterListPath, defaultFilterListPath, readFilterLists } from '../filter-list-path.js';
import { CATEGORY_RULESETS, rulesetFilters, type ListCategory } from './maintained-lists.js';

/** How long one category's engine took to build in this process: wall time and the process's CPU time, in ms. */
export interface ListLoadCost {
  category: ListCategory;
  filters: number;
  wallMs: number;
  cpuMs: number;
}

/**
 * The filter engines of the block categories, built once per process and kept (reading and parsing the
 * lists is the expensive part: ~1 s of CPU for AdGuard Base, ~1.3 s for Tracking Protection, measured by
 * `make bench-readiness`), then shared by every page of every driver in it. A category is built the first
 * time a capture asks for it; a list that could not be read is not kept, so the next capture tries again.
 * `ads` also reads `adFilterFiles` (SHOTFARM_AD_FILTER_LISTS: the repository's small list of ad
 * containers for cosmetic hiding, EasyList an operator brings), so it is keyed by them. `chats` always
 * reads the repository's supplement (drivers/brave/filters/shotfarm-chats.txt): Intercom and Zendesk's
 * messenger, which AdGuard's network rules block only on the sites they name.
 */
export class MaintainedEngines {
  private static readonly engines = new Map<string, Promise<FiltersEngine>>();

  constructor(private readonly adFilterFiles: readonly string[]) {}

  /** The engine of `category`, built on first use in this process. */
  of(category: ListCategory): Promise<FiltersEngine> {
    const files = category === 'ads' ? this.adFilterFiles : category === 'chats' ? [chatsFilterListPath()] : [];
    const key = [category, ...files].join('\n');
    let engine = MaintainedEngines.engines.get(key);
    if (!engine) {
      engine = build(category, files);
      engine.catch(() => MaintainedEngines.engines.delete(key));
      MaintainedEngines.engines.set(key, engine);
    }
    return engine;
  }

  /**
   * Builds these categories' engines now, so that no capture's deadline pays for them (the drivers call it
   * as they launch a browser; later launches find them built). By default only `ads`: brave blocks ads on
   * every capture and hide_ads is the common option (~1 s of CPU). All four cost ~3 s of CPU and ~370 MiB
   * of resident memory in every agent process (Tracking Protection most of it: 163,090 filters), which
   * every installation would pay at start whether or not anyone asks for block_trackers; the other
   * categories are built by the first capture that asks (Widgets and Social ~0.1 s, Tracking ~1.8 s).
   * A list that cannot be read is left to the capture that asks for it, which says why.
   */
  async warm(categories: readonly ListCategory[] = WARMED_AT_LAUNCH): Promise<void> {
    await Promise.all(categories.map((category) => this.of(category).catch(() => undefined)));
  }

  /** What building each engine of this process cost, in build order. */
  static loadCosts(): readonly ListLoadCost[] {
    return loadCosts;
  }
}

/** The categories a driver builds as it launches (MaintainedEngines.warm). */
const WARMED_AT_LAUNCH: readonly ListCategory[] = ['ads'];

/** What building each engine of this process cost, in build order. */
const loadCosts: ListLoadCost[] = [];

async function build(category: ListCategory, files: readonly string[]): Promise<FiltersEngine> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  // `builtin` in SHOTFARM_AD_FILTER_LISTS names AdGuard Base with the repository's list: without it, ads are the operator's lists alone.
  const rulesets = category === 'ads' && !files.includes(defaultFilterListPath()) ? [] : CATEGORY_RULESETS[category];
  const lists = await Promise.all(rulesets.map(rulesetFilters));
  const text = [...lists.map((filters) => filters.join('\n')), ...(files.length > 0 ? [await readFilterLists(files)] : [])].join('\n');
  // Cosmetic filters come from the ad lists' Adblock Plus files only (DNR rule sets are network rules; only ad containers are hidden).
  const engine = FiltersEngine.parse(text, { loadNetworkFilters: true, loadCosmeticFilters: category === 'ads' && files.length > 0, enableCompression: false });
  const used = process.cpuUsage(cpu);
  loadCosts.push({
    category,
    filters: lists.reduce((sum, filters) => sum + filters.length, 0),
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round((used.user + used.system) / 1000),
  });
  return engine;
}
