/**
 * What SHOTFARM_AD_FILTER_LISTS costs an agent process: the CPU time to parse the lists into Ghostery's
 * engine (done once per process and set of lists, at the first hide_ads or brave capture), the engine's
 * size, and the CPU time to load it back from its serialized form (what an on-disk engine cache would
 * save). Lists are the files given as arguments (an EasyList or EasyPrivacy snapshot), the built-in list
 * when none is given. Medians of ROUNDS parses; CPU time of this process, so other load on the machine
 * changes little.
 *
 *   node dist/test/bench/ad-filter-parse.js [list.txt …]     (make bench-ad-lists LISTS="builtin /path/easylist.txt")
 */
import { FiltersEngine } from '@ghostery/adblocker';
import { BUILT_IN_AD_FILTER_LIST } from '../../core/config/ad-filter-lists.js';
import { filterListFiles, readFilterLists } from '../../drivers/shared/filter-list-path.js';

const ROUNDS = 5;

const cpuMs = (work: () => void): number => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const args = process.argv.slice(2);
const files = filterListFiles({ builtIn: args.length === 0 || args.includes(BUILT_IN_AD_FILTER_LIST), files: args.filter((arg) => arg !== BUILT_IN_AD_FILTER_LIST) });
const text = await readFilterLists(files);
const options = { loadNetworkFilters: true, loadCosmeticFilters: true, enableCompression: false };

let engine = FiltersEngine.parse(text, options);
const parse = median(Array.from({ length: ROUNDS }, () => cpuMs(() => (engine = FiltersEngine.parse(text, options)))));
const serialized = engine.serialize();
const load = median(Array.from({ length: ROUNDS }, () => cpuMs(() => FiltersEngine.deserialize(serialized))));
const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('!') && !line.startsWith('[')).length;

console.log(`lists: ${files.join(', ')}`);
console.log(`rules: ${lines} lines of ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`);
console.log(`parse: ${parse.toFixed(0)} ms CPU (median of ${ROUNDS})`);
console.log(`serialized engine: ${(serialized.byteLength / 1024).toFixed(0)} KiB; deserialize: ${load.toFixed(1)} ms CPU (median of ${ROUNDS})`);
