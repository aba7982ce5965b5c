import { EventEmitter } from 'node:events';
import { BROWSERS, type BrowserName } from '../../core/capture-spec.js';
import { JobWithdrawn, QUEUE_TIERS, type CaptureJob, type CaptureResult, type Consumer, type JobHandler, type JobQueue, type LaneAge, type QueueTier } from '../../core/contracts/job-queue.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { normalizeCountries } from './country-routing.js';
import { FairTier, type QueuedEntry } from './memory/fair-tier.js';
import { MemoryJobConsumer } from './memory/memory-job-consumer.js';
import { MemoryResultBus } from './memory/memory-result-bus.js';
import { queueTuning, type QueueTuning } from './queue-tuning.js';
import { runDelivery } from './run-delivery.js';

export interface MemoryJobQueueOptions extends Partial<QueueTuning> {
  /** results one `onResult` handler applies at once */
  resultConcurrency?: number;
  logger?: Logger;
}

/** 16 results at once keeps a recorder busy without flooding the database pool (knex defaults to 10). */
const DEFAULT_RESULT_CONCURRENCY = 16;

/**
 * The in-process JobQueue of embedded mode. Jobs live in memory only: they do not survive the process,
 * which is the embedded trade-off (the api and its one agent live and die together).
 *
 * Scheduling: a free slot takes from the highest non-empty tier; within a tier companies take turns
 * (FairTier). Retries wait on a timer with the shared backoff. There is no ack deadline: the consumer
 * and the queue share the process, so a job is never lost to a dead agent, and `working()` is a no-op.
 */
export class MemoryJobQueue implements JobQueue {
  readonly kind = 'memory' as const;
  private readonly tuning: QueueTuning;
  private readonly log: Logger;
  private readonly tiers = new Map<QueueTier, FairTier>(QUEUE_TIERS.map((tier) => [tier, new FairTier()]));
  /** record ids queued, running or waiting for a retry: enqueueing one of them again is a no-op */
  private readonly known = new Set<number>();
  /** jobs waiting for their retry delay, by their timer */
  private readonly delayed = new Map<NodeJS.Timeout, QueuedEntry>();
  /** the jobs being handled, by record id: withdraw() aborts them */
  private readonly running = new Map<number, AbortController>();
  private readonly consumers: MemoryJobConsumer[] = [];
  private readonly results: MemoryResultBus;
  /** announceEnded to onEnded: one process holds every waiter (the emitter has no listener bound to warn about) */
  private readonly endings = new EventEmitter().setMaxListeners(0);
  /** aborted on close(): running handlers learn that the queue gave their job up */
  private readonly closing = new AbortController();
  private nextConsumer = 0;

  constructor(options: MemoryJobQueueOptions = {}) {
    const { resultConcurrency = DEFAULT_RESULT_CONCURRENCY, logger, ...tuning } = options;
    this.tuning = queueTuning(tuning);
    this.log = logger ?? createLogger('silent');
    this.results = new MemoryResultBus(this.tuning, resultConcurrency, this.log);
  }

  async enqueue(job: CaptureJob): Promise<void> {
    this.assertOpen();
    const tier = this.tier(job.tier);
    // Id 0 marks a one-off local capture without a record: nothing to de-duplicate against.
    if (job.spec.id !== 0) {
      if (this.known.has(job.spec.id)) return;
      this.known.add(job.spec.id);
    }
    // A copy, as a real queue serialises: later changes to the caller's object do not reach the agent.
    tier.push({ job: structuredClone(job), deliveries: 0 });
    this.pump();
  }

  consume(browsers: BrowserName[], slots: number, handler: JobHandler, opts: { countries?: string[] } = {}): Consumer {
    this.assertOpen();
    if (!Number.isInteger(slots) || slots < 1) throw new Error(`slots must be a positive integer, got ${slots}`);
    const consumer = new MemoryJobConsumer(browsers, slots, handler, normalizeCountries(opts.countries), (c) => {
      this.consumers.splice(this.consumers.indexOf(c), 1);
    });
    this.consumers.push(consumer);
    this.pump();
    return consumer;
  }

  async publishResult(result: CaptureResult): Promise<void> {
    this.assertOpen();
    this.results.publish(result);
  }

  onResult(handler: (result: CaptureResult) => Promise<void>): Consumer {
    this.assertOpen();
    return this.results.subscribe(handler);
  }

  async depth(): Promise<Record<BrowserName, number>> {
    const depth = Object.fromEntries(BROWSERS.map((b) => [b, 0])) as Record<BrowserName, number>;
    for (const tier of this.tiers.values()) for (const job of tier.jobs()) depth[job.spec.browser] += 1;
    return depth;
  }

  async oldestWaiting(): Promise<LaneAge[]> {
    const now = Date.now();
    const ages = new Map<string, LaneAge>();
    for (const [tier, fair] of this.tiers) {
      for (const job of fair.jobs()) {
        const key = `${job.spec.browser}.${tier}`;
        const seconds = Math.max(0, (now - job.enqueuedAt) / 1000);
        if ((ages.get(key)?.seconds ?? -1) < seconds) ages.set(key, { browser: job.spec.browser, tier, seconds });
      }
    }
    return [...ages.values()];
  }

  async cancel(ids: number[]): Promise<number> {
    const wanted = new Set(ids.filter((id) => id !== 0));
    let dropped = 0;
    for (const tier of this.tiers.values()) {
      for (const entry of tier.remove(wanted)) {
        this.known.delete(entry.job.spec.id);
        dropped += 1;
      }
    }
    // A job waiting for a retry has started (its first attempt ran) and is not dropped, as on NATS,
    // where its message is already delivered; it ends with its own result.
    return dropped;
  }

  async withdraw(ids: number[]): Promise<void> {
    await this.cancel(ids);
    const wanted = new Set(ids.filter((id) => id !== 0));
    for (const [timer, entry] of this.delayed) {
      if (!wanted.has(entry.job.spec.id)) continue;
      clearTimeout(timer);
      this.delayed.delete(timer);
      this.known.delete(entry.job.spec.id);
    }
    // runDelivery terminates them without a result once their handler has returned.
    for (const id of wanted) this.running.get(id)?.abort(new JobWithdrawn(id));
  }

  announceEnded(ids: number[]): void {
    if (ids.length > 0) this.endings.emit('ended', ids);
  }

  onEnded(listener: (ids: number[]) => void): () => void {
    this.endings.on('ended', listener);
    return () => void this.endings.off('ended', listener);
  }

  async reachable(): Promise<boolean> {
    return !this.closing.signal.aborted;
  }

  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort(new Error('job queue closed'));
    for (const timer of this.delayed.keys()) clearTimeout(timer);
    this.delayed.clear();
    for (const tier of this.tiers.values()) tier.clear();
    this.known.clear();
    this.consumers.length = 0;
    this.results.close();
  }

  private tier(tier: QueueTier): FairTier {
    const fair = this.tiers.get(tier);
    if (!fair) throw new Error(`unknown queue tier ${JSON.stringify(tier)}`);
    return fair;
  }

  /** Hands waiting jobs to consumers with free slots, consumers in turn, highest tier first. */
  private pump(): void {
    if (this.closing.signal.aborted) return;
    let progressed = true;
    while (progressed) {
      progressed = false;
      for (let i = 0; i < this.consumers.length; i += 1) {
        const index = (this.nextConsumer + i) % this.consumers.length;
        const consumer = this.consumers[index] as MemoryJobConsumer;
        if (!consumer.hasRoom()) continue;
        const entry = this.takeFor(consumer);
        if (!entry) continue;
        this.nextConsumer = (index + 1) % this.consumers.length;
        this.start(consumer, entry);
        progressed = true;
        break;
      }
    }
  }

  private takeFor(consumer: MemoryJobConsumer): QueuedEntry | undefined {
    for (const tier of QUEUE_TIERS) {
      const entry = this.tier(tier).take((job) => consumer.accepts(job));
      if (entry) return entry;
    }
    return undefined;
  }

  private start(consumer: MemoryJobConsumer, entry: QueuedEntry): void {
    entry.deliveries += 1;
    const id = entry.job.spec.id;
    const withdrawal = new AbortController();
    if (id !== 0) this.running.set(id, withdrawal);
    const settle = (): void => {
      if (id !== 0) this.known.delete(id);
    };
    const work = runDelivery(
      {
        job: structuredClone(entry.job),
        attempt: entry.deliveries,
        ack: async () => settle(),
        terminate: async () => settle(),
        retry: async (delayMs) => this.retryLater(entry, delayMs),
        // Nothing to extend: the in-process queue has no ack deadline.
        working: () => undefined,
      },
      { handler: consumer.handler, tuning: this.tuning, publishResult: (r) => this.publishResult(r), signal: AbortSignal.any([this.closing.signal, withdrawal.signal]), log: this.log },
    );
    consumer.inflight.track(work, () => {
      if (this.running.get(id) === withdrawal) this.running.delete(id);
      this.pump();
    });
  }

  private retryLater(entry: QueuedEntry, delayMs: number): void {
    if (this.closing.signal.aborted) return;
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      // To the front of its company's line: it has waited longest, as JetStream redelivers before new messages.
      this.tier(entry.job.tier).push(entry, true);
      this.pump();
    }, delayMs);
    this.delayed.set(timer, entry);
  }

  private assertOpen(): void {
    if (this.closing.signal.aborted) throw new Error('job queue closed');
  }
}
