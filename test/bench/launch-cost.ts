/**
 * What starting a browser costs: launch → first page ready → close, timed and charged for CPU. This is
 * what every request would pay on top of a warm capture if a service launched a browser per request,
 * and what a pool saves. Runs while nothing else of the bench is busy (no service, no other browser at
 * work), so the whole CPU of this process and its children is the launch's.
 */
import { performance } from 'node:perf_hooks';
import { LAUNCHES, type BrowserKind } from './bench-settings.js';
import { percentile } from './measure.js';
import { cpuSecondsBetween, readAllStats, treeOf } from './proc-tree.js';
import { launchRawBrowser } from './raw-loop.js';

export interface LaunchCost {
  browser: BrowserKind;
  version: string;
  /** launch → first page ready, ms: what a request would wait for */
  readyMs: number[];
  /** launch → page ready → browser closed and reaped, ms: what the machine is busy with per launch */
  cycleMs: number[];
  /** CPU of the whole cycle, seconds */
  cpuSeconds: number[];
}

/** Browser processes are reaped by Playwright a moment after close() returns; their CPU lands in this process's cutime then. */
const REAP_WAIT_MS = 5_000;

async function waitUntilGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + REAP_WAIT_MS;
  while (Date.now() < deadline) {
    const stats = readAllStats();
    if (pids.every((pid) => !stats.has(pid))) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One launch → newPage → close; CPU is this process (Playwright's side, plus the reaped browser) and the browser tree. */
async function oneLaunch(kind: BrowserKind): Promise<{ readyMs: number; cycleMs: number; cpuSeconds: number; version: string }> {
  const before = readAllStats();
  const started = performance.now();
  const raw = await launchRawBrowser(kind);
  const version = raw.browser.version();
  let readyMs: number;
  try {
    await raw.browser.newPage();
    readyMs = performance.now() - started;
  } finally {
    await raw.browser.close();
  }
  await waitUntilGone(raw.pids);
  const cycleMs = performance.now() - started;
  const after = readAllStats();
  // The browser's processes are gone: their whole CPU is now in this process's cutime/cstime.
  return { readyMs, cycleMs, cpuSeconds: cpuSecondsBetween(before, after, treeOf(after, [process.pid], new Set())), version };
}

/** One untimed launch (disk and font caches), then LAUNCHES timed ones. */
export async function measureLaunchCost(kind: BrowserKind, signal: AbortSignal): Promise<LaunchCost> {
  await oneLaunch(kind);
  const cost: LaunchCost = { browser: kind, version: '', readyMs: [], cycleMs: [], cpuSeconds: [] };
  for (let i = 0; i < LAUNCHES; i++) {
    signal.throwIfAborted();
    const one = await oneLaunch(kind);
    cost.version = one.version;
    cost.readyMs.push(one.readyMs);
    cost.cycleMs.push(one.cycleMs);
    cost.cpuSeconds.push(one.cpuSeconds);
    process.stderr.write(`launch cost ${kind} ${i + 1}/${LAUNCHES}: ready in ${one.readyMs.toFixed(0)} ms, closed after ${one.cycleMs.toFixed(0)} ms\n`);
  }
  return cost;
}

export const median = (values: number[]): number => percentile(values, 50);
