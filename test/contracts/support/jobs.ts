import { expect } from 'chai';
import type { BrowserName } from '../../../core/capture-spec.js';
import type { CaptureJob, CaptureResult, Consumer, JobQueue, QueueTier } from '../../../core/contracts/job-queue.js';
import { agentResult } from '../../support/capture-results.js';
import { captureSpec } from '../../support/capture-spec-factory.js';

/** Record ids for test jobs; unique within the run so a de-duplication by id never hides a test's mistake. */
let lastId = 1_000;

export interface JobOverrides {
  id?: number;
  browser?: BrowserName;
  tier?: QueueTier;
  companyId?: number;
  egressCountry?: string | null;
}

export function testJob(overrides: JobOverrides = {}): CaptureJob {
  lastId += 1;
  const id = overrides.id ?? lastId;
  return {
    spec: captureSpec(overrides.browser ?? 'chrome', `http://127.0.0.1:9/page/${id}`, { id }),
    tier: overrides.tier ?? 'normal',
    companyId: overrides.companyId ?? 1,
    egressCountry: overrides.egressCountry ?? null,
    proxy: null,
    enqueuedAt: Date.now(),
  };
}

/** The result an agent publishes for a job it captured. */
export function finishedResult(job: CaptureJob, nodeId = 'test-agent'): CaptureResult {
  return agentResult(job.spec.id, { finalUrl: job.spec.url, finalUrls: [job.spec.url], timings: { total: 1 }, node: { id: nodeId, host: 'localhost' } });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 20 ms until it holds; fails the test with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) expect.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** Collects every result handed to `onResult`. */
export class ResultLog {
  readonly results: CaptureResult[] = [];
  readonly consumer: Consumer;

  constructor(queue: JobQueue) {
    this.consumer = queue.onResult(async (result) => {
      this.results.push(result);
    });
  }

  of(id: number): CaptureResult[] {
    return this.results.filter((r) => r.id === id);
  }
}

/** A promise and its resolver, to hold a handler until the test lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
