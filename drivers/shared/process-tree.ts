/**
 * The processes below a process and their resident memory, read from /proc (Linux only): what an agent
 * reports as its memory (node-agent/process-tree-rss.ts) and what the page memory ceiling watches
 * (process-memory-watch.ts).
 *
 * The tree is found through each thread's `children` file (/proc/<pid>/task/<tid>/children), which reads
 * only the tree's own processes: walking all of /proc instead read every process of the machine and cost
 * 4–6 ms of CPU per reading on an idle node of the shared 2-core machine, ~37 ms while captures ran there
 * under load (5 % of an embedded serve's CPU in a `make bench` profile, issue 19); the children files take
 * ~0.15 ms. A kernel without them (CONFIG_PROC_CHILDREN off) gets the walk of /proc. The reads are
 * synchronous (with fs/promises a walk cost ~5× more, test/bench/proc-tree.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** /proc/<pid>/status reports VmRSS in kB. */
const BYTES_PER_KB = 1024;

/** The text of a /proc file, or null when the process has exited meanwhile. */
export function readProc(path: string): string | null {
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

/**
 * The resident memory of one process in bytes, null when it is gone. Kernel threads and zombies have no
 * VmRSS line: they hold no user memory (0).
 */
export function residentBytes(pid: number): number | null {
  const status = readProc(`/proc/${pid}/status`);
  return status === null ? null : Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) * BYTES_PER_KB;
}

/** A process's command line, its arguments separated by NUL; null when it is gone. */
export const commandLine = (pid: number): string | null => readProc(`/proc/${pid}/cmdline`);

/**
 * The children of a process (of all its threads: a browser starts its helpers from a launcher thread), or
 * null when the kernel has no children files.
 */
export function childrenOf(pid: number): number[] | null {
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

/** Every process's children, by reading each one's parent from /proc/<pid>/stat; null when /proc cannot be read. */
export function childrenByWalk(): Map<number, number[]> | null {
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
  return children;
}

/**
 * `root` and its descendants that are alive, each with its resident bytes; `children` names a process's
 * children (null: it cannot, and the answer is undefined). Empty when even `root` is gone.
 */
export function treeResidents(root: number, children: (pid: number) => number[] | null): { pid: number; bytes: number }[] | undefined {
  const found: { pid: number; bytes: number }[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    const bytes = residentBytes(pid);
    if (bytes === null) continue;
    const kids = children(pid);
    if (kids === null) return undefined;
    found.push({ pid, bytes });
    pending.push(...kids);
  }
  return found;
}

/** `root` and its descendants with their resident bytes, through the children files or else a walk of /proc. */
export function processTreeResidents(root: number): { pid: number; bytes: number }[] {
  const quick = treeResidents(root, childrenOf);
  if (quick !== undefined) return quick;
  const walked = childrenByWalk();
  return walked ? (treeResidents(root, (pid) => walked.get(pid) ?? []) ?? []) : [];
}
