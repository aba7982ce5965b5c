/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, e.g. SHOTFARM_BENCH_CPU_PROF with capture-cost.ts or
 * speed.ts): where the process's own CPU went, by function (self time) and by where the code lives
 * (shotfarm's folders, each package of node_modules, node's internals, the engine's own work such as
 * garbage collection). Samples in `(idle)` are time the process waited: left out of the shares.
 *
 *   node dist/test/bench/profile-summary.js <file.cpuprofile> [top=25] [skip-seconds=0]
 * skip-seconds leaves out the process's start (migrations, loading Playwright, the first browser): capture-cost.ts
 * prints how long after its start each service began its measured rounds.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a function's code lives: a shotfarm folder, a package, node's own modules, or the engine. */
function placeOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const own = /\/dist\/([^/]+\/[^/]+)\//.exec(url) ?? /\/dist\/([^/]+)\//.exec(url);
  return own ? own[1]! : url;
}

function main(): void {
  const [file, topText, skipText] = process.argv.slice(2);
  const skipUs = Number(skipText ?? 0) * 1e6;
  if (!file) throw new Error('usage: profile-summary.js <file.cpuprofile> [top]');
  const top = Number(topText ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= skipUs) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const fn = new Map<string, number>();
  const place = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const where = placeOf(url, functionName);
    const key = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    place.set(where, (place.get(where) ?? 0) + us);
  }
  const ms = (us: number): string => (us / 1000).toFixed(0).padStart(7);
  const pct = (us: number): string => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  const lines = [
    `${file}: ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s profiled${skipUs > 0 ? ` (the first ${skipUs / 1e6} s left out)` : ''}, ${ms(busy).trim()} ms busy, ${ms(idle).trim()} ms idle`,
    'self time by place:',
  ];
  for (const [where, us] of [...place].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${ms(us)} ms ${pct(us)}  ${where}`);
  lines.push('self time by function:');
  for (const [key, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${ms(us)} ms ${pct(us)}  ${key}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
