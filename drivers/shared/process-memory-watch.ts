import { randomUUID } from 'node:crypto';
import type { CaptureOutput } from '../../core/capture-spec.js';
import { PageFault } from './page-fault.js';
import { childrenByWalk, childrenOf, commandLine, processTreeResidents } from './process-tree.js';

/**
 * How often a browser's processes are looked at while a capture runs. Issue 25's page grew its renderer
 * by ~350 MB/s (15.5 GB in 45 s) and a script allocating in a loop grows ~0.4–1 GB/s. A look reads two
 * /proc files per process and thread of the browser (~100 files for a Chromium with one page): 1.25 ms of
 * CPU measured at load average 29, and its /proc reads were 6–10 % of a serve's or an agent's CPU in issue
 * 30's profiles at 4 looks a second. So the next look comes when the largest process could have reached the
 * ceiling growing at GROWTH_BYTES_PER_MS, between WATCH_MIN_MS and WATCH_MAX_MS: a Chromium far below the
 * 2 GB default is looked at once a second, one near it 4 times a second as before, so a process is still
 * ended at most ~100–250 MB past the ceiling.
 */
const WATCH_MIN_MS = 250;
const WATCH_MAX_MS = 1_000;
/** The fastest growth planned for: ~1 GB/s, a script allocating in a loop. */
const GROWTH_BYTES_PER_MS = 1024 * 1024;

/** When to look again, given the largest process of the tree and the ceiling (bytes). */
export function nextLookMs(largestBytes: number, limitBytes: number): number {
  return Math.min(WATCH_MAX_MS, Math.max(WATCH_MIN_MS, (limitBytes - largestBytes) / GROWTH_BYTES_PER_MS));
}

/** The record's sentence for a capture whose browser passed the ceiling. */
export function pageMemorySentence(limitMb: number): string {
  return `The page used more than ${limitMb % 1024 === 0 ? `${limitMb / 1024} GB` : `${limitMb} MB`} of memory and was stopped.`;
}

/**
 * A mark on a launched browser's command line (an argument the browser ignores; Firefox's launcher script
 * drops it, drivers/playwright/die-with-parent.ts) by which its first process is found among this
 * process's children: Playwright does not say which process it started.
 */
export class BrowserProcessMark {
  readonly arg = `--shotfarm-browser=${randomUUID()}`;
  private pid: number | null = null;

  /** The browser's first process (the root of its tree), or null when it is not running. */
  find(): number | null {
    if (this.pid !== null && this.marks(this.pid)) return this.pid;
    this.pid = null;
    for (const child of childrenOf(process.pid) ?? childrenByWalk()?.get(process.pid) ?? []) if (this.marks(child)) return (this.pid = child);
    return null;
  }

  private marks(pid: number): boolean {
    return commandLine(pid)?.split('\0').includes(this.arg) ?? false;
  }
}

/**
 * The memory ceiling of one browser (SHOTFARM_PAGE_MEMORY_LIMIT_MB): while captures run in it, any process
 * of its tree (a renderer, Firefox's content process, the browser itself) resident above the ceiling is
 * killed. Killing a renderer crashes the pages it holds, so their capture fails fast and ends with
 * pageMemorySentence, never retried (a PageFault); the only capture in the browser is also aborted at
 * once (a crashed page's capture would otherwise sit out its waits: a 3 s delay, measured). Which page
 * grew is not known to the farm: with several captures in one browser (SHOTFARM_CAPTURES_PER_BROWSER
 * above 1) a capture that failed or took no image while a process of its browser was killed is taken for
 * the one, and the others keep their pictures.
 */
export class ProcessMemoryWatch {
  private inFlight = 0;
  private kills = 0;
  private timer: NodeJS.Timeout | null = null;
  /** aborts the captures in flight, when there is only one */
  private readonly aborts = new Set<AbortController>();

  constructor(
    private readonly root: () => number | null,
    private readonly limitMb: number,
  ) {}

  /** Runs one capture under the ceiling; `capture` runs until `signal` (the job's, or a kill's) aborts. */
  async guard(signal: AbortSignal, capture: (signal: AbortSignal) => Promise<CaptureOutput>): Promise<CaptureOutput> {
    const killsBefore = this.kills;
    const killed = new AbortController();
    this.aborts.add(killed);
    if ((this.inFlight += 1) === 1) this.schedule(WATCH_MIN_MS);
    try {
      const output = await capture(AbortSignal.any([signal, killed.signal])).catch((error: unknown) => {
        throw this.kills > killsBefore ? this.fault() : error;
      });
      if (this.kills === killsBefore) return output;
      if (output.images.length === 0) throw this.fault();
      return { ...output, warnings: [...output.warnings, `${pageMemorySentence(this.limitMb).slice(0, -1)} after its screenshot was taken.`] };
    } finally {
      this.aborts.delete(killed);
      if ((this.inFlight -= 1) === 0 && this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
    }
  }

  private fault(): PageFault {
    return new PageFault(pageMemorySentence(this.limitMb), 'too_much_memory');
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.inFlight > 0) this.schedule(this.look());
    }, ms).unref();
  }

  /** Looks at the tree, ends what is above the ceiling, and says when to look again (ms). */
  private look(): number {
    const root = this.root();
    const limit = this.limitMb * 1024 * 1024;
    if (root === null) return WATCH_MIN_MS;
    const killsBefore = this.kills;
    let largest = 0;
    for (const { pid, bytes } of processTreeResidents(root)) {
      if (bytes <= limit) {
        largest = Math.max(largest, bytes);
        continue;
      }
      try {
        process.kill(pid, 'SIGKILL');
        this.kills += 1;
      } catch {
        // gone already
      }
    }
    if (this.kills > killsBefore && this.aborts.size === 1) for (const killed of this.aborts) killed.abort(this.fault());
    return nextLookMs(largest, limit);
  }
}
