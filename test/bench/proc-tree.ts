/**
 * CPU and memory of a process tree, read from /proc (Linux only), for the speed benchmark.
 * A tree is a set of root PIDs and all their descendants; the benchmark's own process is one root and
 * each browser it owns is another, so two modes sharing this process can be told apart.
 */
import { readdir, readFile } from 'node:fs/promises';

/** Kernel clock ticks per second (USER_HZ): /proc/<pid>/stat times are in these; 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;
/** /proc/<pid>/status reports VmRSS in kB. */
const BYTES_PER_KB = 1024;

export interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime of the process itself, plus cutime + cstime of the children it has reaped, in ticks */
  cpuTicks: number;
}

/**
 * Fields of /proc/<pid>/stat after the command name (which may hold spaces, so split after its last ')').
 * man 5 proc numbers them from 1: state is 3, ppid 4, utime 14, stime 15, cutime 16, cstime 17.
 */
function parseStat(pid: number, text: string): ProcStat | null {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number): number => Number(fields[n - 3]);
  if (fields[0] === 'Z') return null; // a zombie's times already went to its parent's cutime/cstime
  // Reaped children count: a renderer lives for one capture and is gone before the round ends.
  return { pid, ppid: field(4), cpuTicks: field(14) + field(15) + field(16) + field(17) };
}

/** Every live process on the machine (a process may exit between listing and reading: skipped). */
export async function readAllStats(): Promise<Map<number, ProcStat>> {
  const stats = new Map<number, ProcStat>();
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  await Promise.all(pids.map(async (pid) => {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').then((text) => parseStat(pid, text), () => null);
    if (stat) stats.set(pid, stat);
  }));
  return stats;
}

/** The roots and everything below them, excluding the subtrees of `excluded` (another mode's browsers). */
export function treeOf(stats: Map<number, ProcStat>, roots: number[], excluded: Set<number>): number[] {
  const children = new Map<number, number[]>();
  for (const stat of stats.values()) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat.pid]);
  const tree: number[] = [];
  const pending = roots.filter((pid) => stats.has(pid));
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []).filter((child) => !excluded.has(child)));
  }
  return tree;
}

/** Direct children of a process. */
export function childrenOf(stats: Map<number, ProcStat>, parent: number): number[] {
  return [...stats.values()].filter((stat) => stat.ppid === parent).map((stat) => stat.pid);
}

/** Sum of VmRSS over the PIDs, in bytes (processes that exited meanwhile count 0). */
export async function rssOf(pids: number[]): Promise<number> {
  const sizes = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/status`, 'utf8').then(
    (text) => Number(/^VmRSS:\s+(\d+)/m.exec(text)?.[1] ?? 0) * BYTES_PER_KB,
    () => 0,
  )));
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** CPU seconds the tree spent between two snapshots: processes new since `before` count from zero. */
export function cpuSecondsBetween(before: Map<number, ProcStat>, after: Map<number, ProcStat>, tree: number[]): number {
  let ticks = 0;
  for (const pid of tree) ticks += (after.get(pid)?.cpuTicks ?? 0) - (before.get(pid)?.cpuTicks ?? 0);
  return ticks / TICKS_PER_SECOND;
}
