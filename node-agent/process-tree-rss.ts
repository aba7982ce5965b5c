/**
 * The resident memory of this process and every process below it (its browsers, their renderers, ffmpeg),
 * read from /proc (drivers/shared/process-tree.ts): what the node holds, the number an operator compares
 * with the machine's memory. Linux only; elsewhere (no /proc) it is null. The value is kept for
 * MAX_AGE_MS, so heartbeats, /healthz and /metrics scrapes together read it at most once a second.
 */
import { childrenByWalk, processTreeResidents, treeResidents } from '../drivers/shared/process-tree.js';

/** A reading this fresh is answered again instead of walking /proc. */
const MAX_AGE_MS = 1_000;

/** The sum of a tree's resident bytes; null when none of it could be read. */
const total = (residents: { bytes: number }[]): number | null => (residents.length > 0 ? residents.reduce((sum, r) => sum + r.bytes, 0) : null);

/** RSS in bytes of `root` and all its descendants, now; null when /proc cannot be read. */
export function readTreeRss(root: number = process.pid): number | null {
  return total(processTreeResidents(root));
}

/** The same by reading every process's parent from /proc/<pid>/stat: for kernels without children files. */
export function readTreeRssByWalk(root: number = process.pid): number | null {
  const children = childrenByWalk();
  return children ? total(treeResidents(root, (pid) => children.get(pid) ?? []) ?? []) : null;
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
