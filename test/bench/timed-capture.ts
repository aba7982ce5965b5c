import { performance } from 'node:perf_hooks';
import type { CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { cpuSecondsBetween, readAllStats, treeOf } from './proc-tree.js';

/** One capture's wall time and the CPU of this process and the browsers under it (/proc), with its output. */
export interface TimedCapture {
  wallMs: number;
  cpuMs: number;
  output: CaptureOutput;
}

/** Captures `spec` once on `handle` (60 s at most), timing it as the cost benchmarks compare it. */
export async function timedCapture(handle: BrowserHandle, spec: CaptureSpec): Promise<TimedCapture> {
  const before = readAllStats();
  const started = performance.now();
  const output = await handle.capture(spec, AbortSignal.timeout(60_000));
  const wallMs = performance.now() - started;
  const after = readAllStats();
  return { wallMs, cpuMs: cpuSecondsBetween(before, after, treeOf(after, [process.pid], new Set())) * 1000, output };
}
