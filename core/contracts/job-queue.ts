import type { BlockedCounts, BrowserName, CaptureOutput, CaptureSpec, PageMetadata } from '../capture-spec.js';
import type { ErrorCause } from '../error-cause.js';
import type { StoredObject } from './object-store.js';

/**
 * Queue tiers, highest first. `bulk` holds batch and crawl jobs so that thousands of them never starve
 * single requests; `high` is for priority >= HIGH_PRIORITY_THRESHOLD.
 */
export const QUEUE_TIERS = ['high', 'normal', 'bulk'] as const;
export type QueueTier = (typeof QUEUE_TIERS)[number];
export const HIGH_PRIORITY_THRESHOLD = 5;

/** One screenshot to capture. `spec.id` is the record id, and the queue's de-duplication id. */
export interface CaptureJob {
  spec: CaptureSpec;
  tier: QueueTier;
  /** the account, so fair sharing can interleave accounts within a tier */
  companyId: number;
  /** country routing: only an agent that egresses from this country may take the job; null = any agent */
  egressCountry: string | null;
  /** country routing: a proxy URL the agent must use, or null (direct) */
  proxy: string | null;
  enqueuedAt: number;
  /**
   * the X-Request-Id of the HTTP request that created the record, so the agent's log lines of this job
   * can be found with it; absent for records no request created (crawl pages found later) and for jobs
   * queued before this field existed
   */
  requestId?: string;
}

/** How long the oldest job waiting in one lane (browser × tier) has waited, in seconds. */
export interface LaneAge {
  browser: BrowserName;
  tier: QueueTier;
  seconds: number;
}

/** A stored output of a capture. */
export interface CaptureFile extends StoredObject {
  kind: 'image' | 'html' | 'markdown' | 'pdf' | 'video';
  shot: number | null;
}

/** What an agent reports for a job; applied by the recorder in api/, idempotently. */
export interface CaptureResult extends Omit<CaptureOutput, 'images' | 'imageFormat' | 'html' | 'markdown' | 'metadata' | 'pdf' | 'video' | 'blank' | 'conditionFailed' | 'blocked'> {
  /** the page's metadata (CaptureOutput.metadata); optional on the wire: an agent older than the field sends none */
  metadata?: PageMetadata | null;
  /** the capture was blank (CaptureOutput.blank); optional on the wire: an agent older than the field sends none */
  blank?: boolean;
  /** what was blocked per category (CaptureOutput.blocked); optional on the wire, as `blank` */
  blocked?: BlockedCounts;
  id: number;
  status: 'finished' | 'error';
  error: string;
  /**
   * Why an `error` result ended so (absent when finished). Optional on the wire: a result from an agent
   * older than the field is recorded as `capture_failed`.
   */
  errorCause?: ErrorCause;
  /** the outputs, already in object storage */
  files: CaptureFile[];
  node: { id: string; host: string };
  /** how the job was routed: `agent:fr`, `proxy:fr`, `any` */
  routing: string;
}

/** What a job handler decides: done (ack), retry later (redeliver with backoff), or fail for good (`cause`: the record's error_cause, capture_failed when absent). */
export type JobOutcome = { kind: 'done' } | { kind: 'retry'; reason: string } | { kind: 'fail'; reason: string; cause?: ErrorCause };

export interface JobControl {
  /** tell the queue the job is still being worked on (extends its ack deadline) */
  working(): void;
  /** 1 for the first delivery */
  attempt: number;
  /** aborted when the queue gives the job up (consumer stopping), or withdraws it (its reason: a JobWithdrawn) */
  signal: AbortSignal;
}

/** The abort reason of a job withdrawn while it ran: its record is gone, nothing of it is wanted any more. */
export class JobWithdrawn extends Error {
  constructor(readonly id: number) {
    super(`job ${id} withdrawn: its record was deleted`);
    this.name = 'JobWithdrawn';
  }
}

/** Whether `signal` was aborted because its job was withdrawn (JobQueue.withdraw). */
export const isWithdrawn = (signal: AbortSignal): boolean => signal.aborted && signal.reason instanceof JobWithdrawn;

export type JobHandler = (job: CaptureJob, ctl: JobControl) => Promise<JobOutcome>;

export interface Consumer {
  /** stop taking new jobs, wait for the ones in flight, then resolve */
  drain(): Promise<void>;
  /** jobs being handled right now */
  inFlight(): number;
}

/**
 * The farm's work queue. Jobs are routed by browser and tier; each consumer holds at most `slots`
 * jobs at once. A job retried more than `maxDeliveries` times ends with an `error` result published
 * by the queue itself, so every job ends exactly once.
 */
export interface JobQueue {
  readonly kind: 'memory' | 'nats';
  /** Enqueues a job; a job with an id already queued is ignored (de-duplication). */
  enqueue(job: CaptureJob): Promise<void>;
  consume(browsers: BrowserName[], slots: number, handler: JobHandler, opts?: { countries?: string[] }): Consumer;
  publishResult(result: CaptureResult): Promise<void>;
  /** Results are handed to the handler at least once; it must be idempotent. */
  onResult(handler: (result: CaptureResult) => Promise<void>): Consumer;
  /** Jobs waiting (not yet taken), per browser. */
  depth(): Promise<Record<BrowserName, number>>;
  /** Per lane holding waiting jobs (not yet taken), the age of its oldest one; lanes with none are absent. */
  oldestWaiting(): Promise<LaneAge[]>;
  /** Drops queued jobs that have not started (batch cancel); returns how many were dropped. */
  cancel(ids: number[]): Promise<number>;
  /**
   * Withdraws the jobs of records that no longer exist (a screenshot deleted while processing): a queued job
   * is dropped, a running one is aborted where it runs (its handler's signal fires with a JobWithdrawn), and
   * none is delivered again or ends with a result. An id the queue does not hold is ignored.
   */
  withdraw(ids: number[]): Promise<void>;
  reachable(): Promise<boolean>;
  /**
   * Tells every process listening with onEnded (this one too) that these records left `processing`, so the
   * waiters of info?wait and render wake in whichever api replica they wait, whichever recorded the result.
   * Plain messages (no stream), at most once: a waiter that misses one reads the record when its time is up.
   */
  announceEnded(ids: number[]): void;
  /** Listens to announceEnded of every process; the returned function stops listening. */
  onEnded(listener: (ids: number[]) => void): () => void;
  close(): Promise<void>;
}
