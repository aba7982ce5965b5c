/**
 * One measured round of the speed benchmark: N captures by C workers against one mode, with the wall
 * time, every capture's latency and phases, the CPU the mode's processes spent and their peak RSS.
 */
import { performance } from 'node:perf_hooks';
import { SAMPLE_MS, type Size } from './bench-settings.js';
import { cpuSecondsBetween, ownCpuSecondsBetween, readAllStats, rssOf, type ProcStat } from './proc-tree.js';

/** What one capture reports: its latency as the client saw it, and its phases (ms). */
export interface Capture {
  ms: number;
  timings: Record<string, number>;
}
/** One capture of a URL; `worker` tells which of the round's workers asks (one browser per slot uses it). */
export type CaptureFn = (url: string, size: Size, worker: number, signal: AbortSignal) => Promise<Capture>;

/**
 * Which processes a round is charged for, from a /proc snapshot: CPU over `cpu`, RSS over `rss`. Shown apart
 * (issue 19): `service`, shotfarm's own processes (their own threads), and `browsers`, the browsers' trees.
 */
export type Scope = (stats: Map<number, ProcStat>) => { cpu: number[]; rss: number[]; service?: number[]; browsers?: number[] };

/** Everything measured for one (browser, size, concurrency, mode), summed over its rounds. */
export interface Cell {
  captures: number;
  wallMs: number;
  latencies: number[];
  cpuSeconds: number;
  /** of it, shotfarm's own processes (serve; api and agent) and the browsers */
  serviceCpuSeconds: number;
  browserCpuSeconds: number;
  peakRss: number;
  timings: Record<string, number>[];
}

export const emptyCell = (): Cell => ({ captures: 0, wallMs: 0, latencies: [], cpuSeconds: 0, serviceCpuSeconds: 0, browserCpuSeconds: 0, peakRss: 0, timings: [] });

/** Samples the scope's RSS every SAMPLE_MS until stopped; returns the peak (bytes). */
function startRssSampler(scope: Scope): () => number {
  let peak = 0;
  const sample = (): void => {
    peak = Math.max(peak, rssOf(scope(readAllStats()).rss));
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

/**
 * Runs `captures` captures with `concurrency` workers and adds the numbers to `cell`. The first failing
 * capture stops the other workers (after their current capture) and fails the round; so does `outer`
 * (the whole bench stopping: a service died, or Ctrl-C).
 */
export async function runRound(opts: {
  cell: Cell;
  capture: CaptureFn;
  nextUrl: (size: Size) => string;
  size: Size;
  concurrency: number;
  captures: number;
  scope: Scope;
  outer: AbortSignal;
  measured: boolean;
}): Promise<void> {
  const { cell, capture, nextUrl, size, concurrency, scope, outer, measured } = opts;
  outer.throwIfAborted();
  const stop = new AbortController();
  const onOuter = (): void => stop.abort(outer.reason);
  outer.addEventListener('abort', onOuter, { once: true });
  const before = readAllStats();
  const stopSampler = startRssSampler(scope);
  const started = performance.now();
  let left = opts.captures;
  const latencies: number[] = [];
  const timings: Record<string, number>[] = [];
  const worker = async (index: number): Promise<void> => {
    while (left > 0 && !stop.signal.aborted) {
      left -= 1;
      try {
        const result = await capture(nextUrl(size), size, index, stop.signal);
        latencies.push(result.ms);
        timings.push(result.timings);
      } catch (error) {
        stop.abort(error);
        throw error;
      }
    }
  };
  try {
    const settled = await Promise.allSettled(Array.from({ length: concurrency }, (_, i) => worker(i)));
    const wallMs = performance.now() - started;
    // The bench's reason (a service that died) explains more than the capture error it caused.
    if (outer.aborted) throw outer.reason;
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    if (!measured) return;
    cell.wallMs += wallMs;
    cell.latencies.push(...latencies);
    cell.timings.push(...timings);
    cell.captures += latencies.length;
    const after = readAllStats();
    const charged = scope(after);
    cell.cpuSeconds += cpuSecondsBetween(before, after, charged.cpu);
    cell.serviceCpuSeconds += ownCpuSecondsBetween(before, after, charged.service ?? []);
    cell.browserCpuSeconds += cpuSecondsBetween(before, after, charged.browsers ?? []);
  } finally {
    outer.removeEventListener('abort', onOuter);
    const peak = stopSampler();
    if (measured) cell.peakRss = Math.max(cell.peakRss, peak);
  }
}

/** Nearest-rank percentile of the values (p in 0..100). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export const throughput = (cell: Cell): number => cell.captures / (cell.wallMs / 1000);
