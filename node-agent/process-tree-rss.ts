/**
 * The resident memory of this process and every process below it (its browsers, their renderers, ffmpeg),
 * read from /proc: what the node holds, the number an operator compares with the machine's memory.
 * Linux only; elsewhere (no /proc) it is null.
 *
 * The reads are synchronous: a walk of /proc is a few hundred tiny files and costs ~2–4 ms of CPU this way
 * (with fs/promises it cost ~5× that in the speed benchmark's sampler, test/bench/proc-tree.ts). The value is
 * kept for MAX_AGE_MS, so heartbeats, /healthz and /metrics scrapes together walk /proc at most once a second.
 */
import { readdirSync, readFileSync } from 'node:fs';

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

/** RSS in bytes of `root` and all its descendants, now; null when /proc cannot be read. */
export function readTreeRss(root: number = process.pid): number | null {
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
  let bytes = 0;
  let found = false;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    const status = readProc(`/proc/${pid}/status`);
    if (status === null) continue;
    found = true;
    // Kernel threads and zombies have no VmRSS line: they hold no user memory.
    bytes += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) * BYTES_PER_KB;
    pending.push(...(children.get(pid) ?? []));
  }
  return found ? bytes : null;
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
