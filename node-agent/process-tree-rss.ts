/**
 * The resident memory of this process and every process below it (its browsers, their renderers, ffmpeg),
 * read from /proc: what the node holds, the number an operator compares with the machine's memory.
 * Linux only; elsewhere (no /proc) it is null.
 *
 * The tree is found through each thread's `children` file (/proc/<pid>/task/<tid>/children), which reads
 * only the node's own processes: walking all of /proc instead read every process of the machine and cost
 * 4–6 ms of CPU per reading on an idle node of the shared 2-core machine, ~37 ms while captures ran there
 * under load (5 % of an embedded serve's CPU in a `make bench` profile, issue 19); the children files take
 * ~0.15 ms. A kernel without them (CONFIG_PROC_CHILDREN off) gets the walk of /proc. The reads are
 * synchronous (with fs/promises a walk cost ~5× more, test/bench/proc-tree.ts). The value is kept for
 * MAX_AGE_MS, so heartbeats, /healthz and /metrics scrapes together read it at most once a second.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** /proc/<pid>/status reports VmRSS in kB. */
const BYTES_PER_KB = 1024;
/** A reading this fresh is answered again instead of walking /proc. */
const MAX_AGE_MS = 1_000;

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null; // the process exited meanwhile
  }
}

/** The parent of a process: field 4 of /proc/<pid>/stat, counted after the command name (which may hold spaces). */
function parentOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** RSS from a /proc/<pid>/status text, in bytes. Kernel threads and zombies have no VmRSS line: they hold no user memory. */
const rssOfStatus = (status: string): number => Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) * BYTES_PER_KB;

/** The children of a process (of all its threads: a browser starts its helpers from a launcher thread), or null when the kernel has no children files. */
function childrenOf(pid: number): number[] | null {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // the process exited meanwhile
  }
  const children: number[] = [];
  for (const task of tasks) {
    const text = readProc(`/proc/${pid}/task/${task}/children`);
    if (text === null) {
      if (task === String(pid) && !existsSync(`/proc/${pid}/task/${task}/children`)) return null;
      continue; // the thread ended meanwhile
    }
    for (const child of text.split(' ')) if (child.trim() !== '') children.push(Number(child));
  }
  return children;
}

/**
 * RSS in bytes of `root` and the descendants `children` names, now; null when none of them could be read,
 * undefined when `children` cannot name a process's children.
 */
function sumTreeRss(root: number, children: (pid: number) => number[] | null): number | null | undefined {
  let bytes = 0;
  let found = false;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    const status = readProc(`/proc/${pid}/status`);
    if (status === null) continue;
    const kids = children(pid);
    if (kids === null) return undefined;
    found = true;
    bytes += rssOfStatus(status);
    pending.push(...kids);
  }
  return found ? bytes : null;
}

/** RSS in bytes of `root` and all its descendants, now; null when /proc cannot be read. */
export function readTreeRss(root: number = process.pid): number | null {
  const bytes = sumTreeRss(root, childrenOf);
  return bytes === undefined ? readTreeRssByWalk(root) : bytes;
}

/** The same by reading every process's parent from /proc/<pid>/stat: for kernels without children files. */
export function readTreeRssByWalk(root: number = process.pid): number | null {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProc(`/proc/${name}/stat`);
    if (stat === null) continue;
    const parent = parentOf(stat);
    const siblings = children.get(parent);
    if (siblings) siblings.push(Number(name));
    else children.set(parent, [Number(name)]);
  }
  return sumTreeRss(root, (pid) => children.get(pid) ?? []) ?? null;
}

/** readTreeRss of this process, remembered for a second. */
export class TreeRssReader {
  private last: { at: number; bytes: number | null } | null = null;

  read(): number | null {
    const now = Date.now();
    if (this.last && now - this.last.at < MAX_AGE_MS) return this.last.bytes;
    this.last = { at: now, bytes: readTreeRss() };
    return this.last.bytes;
  }
}
