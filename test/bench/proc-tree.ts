/**
 * CPU and memory of a process tree, read from /proc (Linux only), for the speed benchmark.
 * A tree is a set of root PIDs and all their descendants: the benchmark's own browsers are roots, and so
 * is each service it starts as a child process, so every mode is charged for its own processes only.
 *
 * The reads are synchronous on purpose: the RSS sampler walks all of /proc every 100 ms, and with
 * fs/promises that walk cost ~20 ms of CPU (a thread-pool round trip and a promise per tiny file), CPU
 * taken from the 2 cores under test and charged to every mode; synchronously it costs ~4 ms.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks per second (USER_HZ): /proc/<pid>/stat times are in these; 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;
/** /proc/<pid>/status reports VmRSS in kB. */
const BYTES_PER_KB = 1024;

export interface ProcStat {
  pid: number;
  ppid: number;
  /** process group: a service child leads its own, each browser Playwright starts leads another */
  pgid: number;
  /** the command name (/proc/<pid>/comm, at most 15 characters): `postgres` for the database server */
  comm: string;
  /** start time after boot, in ticks: a PID with another start time is another process (PIDs are reused) */
  startTicks: number;
  /** utime + stime of the process itself, plus cutime + cstime of the children it has reaped, in ticks */
  cpuTicks: number;
  /** utime + stime of the process itself only (what its own threads ran) */
  ownTicks: number;
}

/**
 * Fields of /proc/<pid>/stat after the command name (which may hold spaces, so split after its last ')').
 * man 5 proc numbers them from 1: comm is 2 (in parentheses), state 3, ppid 4, pgrp 5, utime 14, stime 15,
 * cutime 16, cstime 17, starttime 22.
 */
function parseStat(pid: number, text: string): ProcStat | null {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number): number => Number(fields[n - 3]);
  if (fields[0] === 'Z') return null; // a zombie's times go to its parent's cutime/cstime once it is reaped
  const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  // Reaped children count: a renderer lives for one capture and is gone before the round ends.
  return { pid, ppid: field(4), pgid: field(5), comm, startTicks: field(22), cpuTicks: field(14) + field(15) + field(16) + field(17), ownTicks: field(14) + field(15) };
}

/** The text of a /proc file, or null when the process has exited meanwhile. */
function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null;
  }
}

/** Every live process on the machine (a process may exit between listing and reading: skipped). */
export function readAllStats(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const text = readProc(`/proc/${pid}/stat`);
    const stat = text === null ? null : parseStat(pid, text);
    if (stat) stats.set(pid, stat);
  }
  return stats;
}

/** The roots and everything below them, excluding the subtrees of `excluded` (another mode's browsers). */
export function treeOf(stats: Map<number, ProcStat>, roots: number[], excluded: Set<number>): number[] {
  const children = new Map<number, number[]>();
  for (const stat of stats.values()) {
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(stat.pid);
    else children.set(stat.ppid, [stat.pid]);
  }
  const tree: number[] = [];
  const pending = roots.filter((pid) => stats.has(pid));
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []).filter((child) => !excluded.has(child)));
  }
  return tree;
}

/** Processes whose command name is `comm` (e.g. every `postgres` process of the machine's server). */
export function pidsNamed(stats: Map<number, ProcStat>, comm: string): number[] {
  return [...stats.values()].filter((stat) => stat.comm === comm).map((stat) => stat.pid);
}

/** Direct children of a process. */
export function childrenOf(stats: Map<number, ProcStat>, parent: number): number[] {
  return [...stats.values()].filter((stat) => stat.ppid === parent).map((stat) => stat.pid);
}

/** Sum of VmRSS over the PIDs, in bytes (processes that exited meanwhile count 0). */
export function rssOf(pids: number[]): number {
  let bytes = 0;
  for (const pid of pids) bytes += Number(/^VmRSS:\s+(\d+)/m.exec(readProc(`/proc/${pid}/status`) ?? '')?.[1] ?? 0) * BYTES_PER_KB;
  return bytes;
}

/** CPU seconds the tree spent between two snapshots: processes new since `before` count from zero. */
export function cpuSecondsBetween(before: Map<number, ProcStat>, after: Map<number, ProcStat>, tree: number[]): number {
  let ticks = 0;
  for (const pid of tree) ticks += (after.get(pid)?.cpuTicks ?? 0) - (before.get(pid)?.cpuTicks ?? 0);
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds the processes' own threads spent between two snapshots (children they reaped not counted). */
export function ownCpuSecondsBetween(before: Map<number, ProcStat>, after: Map<number, ProcStat>, pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) ticks += (after.get(pid)?.ownTicks ?? 0) - (before.get(pid)?.ownTicks ?? 0);
  return ticks / TICKS_PER_SECOND;
}
