import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { BROWSERS, type BrowserName } from '../../core/capture-spec.js';
import { QUEUE_TIERS, type CaptureJob, type CaptureResult, type Consumer, type JobHandler, type JobQueue, type LaneAge } from '../../core/contracts/job-queue.js';
import { serviceUnavailable } from '../../core/errors.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { natsConnected } from '../nats/connect.js';
import { ANY_COUNTRY, jobCountryToken, normalizeCountries } from './country-routing.js';
import { decodeIds, encodeJson } from './nats/job-codec.js';
import { JobStateStore } from './nats/job-state.js';
import { NatsJobConsumer } from './nats/nats-job-consumer.js';
import { NatsResultConsumer } from './nats/nats-result-consumer.js';
import type { QueueContext, QueueHandles } from './nats/queue-context.js';
import { queueDepth } from './nats/queue-depth.js';
import { oldestWaiting } from './nats/queue-age.js';
import { ensureQueueConsumer, ensureQueueStreams } from './nats/stream-setup.js';
import { QueueNames, servesLane, type AccountQueue } from './nats/subjects.js';
import { queueTuning, type QueueTuning } from './queue-tuning.js';

export interface NatsJobQueueOptions extends Partial<QueueTuning> {
  /** the process's NATS connection (see grid/nats/connect.ts); the caller closes it after the queue */
  connection: NatsConnection;
  /** the installation's prefix for streams, bucket and subjects (tests use a throwaway one) */
  prefix: string;
  /** a job whose agent neither acks nor calls working() for this long is delivered to another agent */
  ackWaitMs?: number;
  /** how long a re-published record id is recognised as a duplicate by JetStream itself */
  duplicateWindowMs?: number;
  /** how long a job's queued/started/cancelled state outlives a job nobody settles */
  jobStateTtlMs?: number;
  /** how often an idle agent looks for delayed retries and redeliveries (new jobs wake it at once) */
  idlePollMs?: number;
  /** the longest one request to NATS (pull, ack, publish) may take */
  requestTimeoutMs?: number;
  /** results one `onResult` applies at once */
  resultConcurrency?: number;
  /** an unacknowledged result is delivered again after this long */
  resultAckWaitMs?: number;
  logger?: Logger;
}

/**
 * Defaults, in ms. Ack wait 30 s: a capture runs under a deadline of that order and agents call working()
 * on longer ones; a dead agent's job restarts within 30 s. Duplicate window 10 min: covers any retry of
 * an enqueue by the api. Job state 24 h: longer than any job should wait in a healthy farm. Idle poll 1 s:
 * retries and redeliveries are found within a second, at one request per lane per second per idle agent.
 * Request timeout 5 s: NATS answers in milliseconds; 5 s rides out a leader election. Results: 16 at
 * once keeps a recorder busy without flooding its database pool; 30 s to apply one.
 */
const DEFAULTS = {
  ackWaitMs: 30_000,
  duplicateWindowMs: 10 * 60_000,
  jobStateTtlMs: 24 * 60 * 60_000,
  idlePollMs: 1_000,
  requestTimeoutMs: 5_000,
  resultConcurrency: 16,
  resultAckWaitMs: 30_000,
};

/** Jobs cancelled at once: a batch cancel of thousands should not open thousands of requests together. */
const CANCEL_CONCURRENCY = 32;

/**
 * The JobQueue of distributed mode, on NATS JetStream.
 *
 * - Stream `<prefix>_jobs` (work queue) takes `<prefix>.jobs.<browser>.<tier>.<country|any>.<company>`.
 * - One durable pull consumer per account queue (browser × tier × country|any × account), shared by every
 *   agent serving it; created on demand, deleted by the server after an hour without pulls.
 * - An agent pulls one job at a time per free slot (never more than `slots` held), highest tier first,
 *   accounts taking turns within a tier (nats/fair-rotation.ts).
 * - Retry → nak with a growing delay; after `maxDeliveries` the queue publishes the `error` result and
 *   terminates the message. The record id is the msgID (duplicate window) and the KV job-state key.
 * - Stream `<prefix>_results` (work queue) takes `<prefix>.results`; durable consumer `recorder`.
 * - KV `<prefix>_jobstate`: queued → started | cancelled, compare-and-set; cancel also deletes the message.
 */
export class NatsJobQueue implements JobQueue {
  readonly kind = 'nats' as const;
  private readonly ctx: QueueContext;
  private readonly settings: Required<Omit<NatsJobQueueOptions, keyof QueueTuning | 'connection' | 'prefix' | 'logger'>>;
  private readonly closing = new AbortController();
  private setup: Promise<QueueHandles> | undefined;
  private readonly consumersReady = new Map<string, Promise<void>>();
  private readonly jobConsumers = new Set<NatsJobConsumer>();
  private readonly resultConsumers = new Set<NatsResultConsumer>();

  constructor(options: NatsJobQueueOptions) {
    const { connection, prefix, logger, ackWaitMs, duplicateWindowMs, jobStateTtlMs, idlePollMs, requestTimeoutMs, resultConcurrency, resultAckWaitMs, ...tuning } = options;
    this.settings = {
      ackWaitMs: ackWaitMs ?? DEFAULTS.ackWaitMs,
      duplicateWindowMs: duplicateWindowMs ?? DEFAULTS.duplicateWindowMs,
      jobStateTtlMs: jobStateTtlMs ?? DEFAULTS.jobStateTtlMs,
      idlePollMs: idlePollMs ?? DEFAULTS.idlePollMs,
      requestTimeoutMs: requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      resultConcurrency: resultConcurrency ?? DEFAULTS.resultConcurrency,
      resultAckWaitMs: resultAckWaitMs ?? DEFAULTS.resultAckWaitMs,
    };
    // A connection closed for good ends every consumer; their handlers learn it from the signal.
    void connection.closed().then(() => this.closing.abort(new Error('NATS connection closed')));
    this.ctx = {
      nc: connection,
      names: new QueueNames(prefix),
      tuning: queueTuning(tuning),
      log: logger ?? createLogger('silent'),
      idlePollMs: this.settings.idlePollMs,
      requestTimeoutMs: this.settings.requestTimeoutMs,
      closing: this.closing.signal,
      handles: () => this.handles(),
      ensureConsumers: (queues) => this.ensureConsumers(queues),
      forgetConsumer: (queue) => this.consumersReady.delete(queue.consumer),
      invalidate: () => {
        this.setup = undefined;
        this.consumersReady.clear();
      },
      publishResult: (result) => this.publishResult(result),
    };
  }

  async enqueue(job: CaptureJob): Promise<void> {
    this.assertOpen();
    this.assertConnected();
    if (!(QUEUE_TIERS as readonly string[]).includes(job.tier)) throw new Error(`unknown queue tier ${JSON.stringify(job.tier)}`);
    if (!(BROWSERS as readonly string[]).includes(job.spec.browser)) throw new Error(`unknown browser ${JSON.stringify(job.spec.browser)}`);
    if (!Number.isInteger(job.companyId) || job.companyId < 0) throw new Error(`invalid companyId ${JSON.stringify(job.companyId)}`);
    const subject = this.ctx.names.jobSubject(job.spec.browser, job.tier, jobCountryToken(job), job.companyId);
    const { js, jobState } = await this.handles();
    const id = job.spec.id;
    // Id 0 is a one-off local capture without a record: nothing to de-duplicate or cancel.
    if (id === 0) {
      await js.publish(subject, encodeJson(job), { timeout: this.ctx.requestTimeoutMs });
      return;
    }
    const revision = await jobState.reserve(id);
    if (revision === null) return; // queued, running or cancelled already
    try {
      const ack = await js.publish(subject, encodeJson(job), { msgID: String(id), timeout: this.ctx.requestTimeoutMs });
      if (ack.duplicate) {
        // JetStream saw this id within its window: the job ran already; drop the reservation just made.
        await jobState.forget(id);
        return;
      }
      await jobState.recordSeq(id, revision, ack.seq);
    } catch (err) {
      // The publish may have failed: free the id so the caller's retry is not taken for a duplicate.
      await jobState.forget(id).catch(() => undefined);
      throw err;
    }
  }

  consume(browsers: BrowserName[], slots: number, handler: JobHandler, opts: { countries?: string[] } = {}): Consumer {
    this.assertOpen();
    if (!Number.isInteger(slots) || slots < 1) throw new Error(`slots must be a positive integer, got ${slots}`);
    const unique = [...new Set(browsers)];
    for (const browser of unique) if (!(BROWSERS as readonly string[]).includes(browser)) throw new Error(`unknown browser ${JSON.stringify(browser)}`);
    const countries = normalizeCountries(opts.countries);
    const wakeSubjects = unique.flatMap((browser) => [...countries, ANY_COUNTRY].map((country) => this.ctx.names.wakeSubject(browser, country)));
    const consumer = new NatsJobConsumer(this.ctx, unique, servesLane(unique, countries), wakeSubjects, slots, handler, (c) => this.jobConsumers.delete(c));
    this.jobConsumers.add(consumer);
    return consumer;
  }

  async publishResult(result: CaptureResult): Promise<void> {
    this.assertOpen();
    const { js } = await this.handles();
    // The record id de-duplicates a result re-published by an agent whose first publish timed out.
    await js.publish(this.ctx.names.resultsSubject, encodeJson(result), {
      ...(result.id !== 0 ? { msgID: `result-${result.id}` } : {}),
      timeout: this.ctx.requestTimeoutMs,
    });
  }

  onResult(handler: (result: CaptureResult) => Promise<void>): Consumer {
    this.assertOpen();
    const consumer = new NatsResultConsumer(this.ctx, handler, this.settings.resultConcurrency, (c) => this.resultConsumers.delete(c));
    this.resultConsumers.add(consumer);
    return consumer;
  }

  async depth(): Promise<Record<BrowserName, number>> {
    const { jsm } = await this.handles();
    return queueDepth(jsm, this.ctx.names);
  }

  async oldestWaiting(): Promise<LaneAge[]> {
    const { jsm } = await this.handles();
    return oldestWaiting(jsm, this.ctx.names);
  }

  async cancel(ids: number[]): Promise<number> {
    const { jsm, jobState } = await this.handles();
    const unique = [...new Set(ids.filter((id) => id !== 0))];
    let dropped = 0;
    for (let i = 0; i < unique.length; i += CANCEL_CONCURRENCY) {
      await Promise.all(
        unique.slice(i, i + CANCEL_CONCURRENCY).map(async (id) => {
          const { cancelled, seq } = await jobState.cancel(id);
          if (!cancelled) return;
          dropped += 1;
          // Deleting the message makes depth drop now; should it fail, the agent that pulls it drops it.
          if (seq !== undefined) await jsm.streams.deleteMessage(this.ctx.names.jobsStream, seq, false).catch(() => false);
        }),
      );
    }
    return dropped;
  }

  async withdraw(ids: number[]): Promise<void> {
    const { jsm, jobState } = await this.handles();
    const unique = [...new Set(ids.filter((id) => id !== 0))];
    const running: number[] = [];
    for (let i = 0; i < unique.length; i += CANCEL_CONCURRENCY) {
      await Promise.all(
        unique.slice(i, i + CANCEL_CONCURRENCY).map(async (id) => {
          // Cancelled in the job state first: a delivery not claimed yet, or a later retry, is dropped at claim.
          const state = await jobState.withdraw(id);
          if (state?.was === 'started') running.push(id);
          else if (state?.was === 'queued' && state.seq !== undefined) await jsm.streams.deleteMessage(this.ctx.names.jobsStream, state.seq, false).catch(() => false);
        }),
      );
    }
    if (running.length === 0) return;
    // The agent running one aborts it (nats-job-consumer.ts). Plain NATS: an agent cut off at this moment
    // misses it, finishes the capture, and its result finds no record (an orphan: its files are deleted).
    this.ctx.nc.publish(this.ctx.names.withdrawnSubject, encodeJson(running));
    await this.ctx.nc.flush();
  }

  announceEnded(ids: number[]): void {
    // Disconnected or closed: the message is lost, as plain NATS loses it; the waiters read the record when their time is up.
    if (ids.length === 0 || this.closing.signal.aborted || !natsConnected(this.ctx.nc)) return;
    try {
      this.ctx.nc.publish(this.ctx.names.endedSubject, encodeJson(ids));
    } catch (err) {
      this.ctx.log.warn({ err }, 'queue: could not announce ended records');
    }
  }

  onEnded(listener: (ids: number[]) => void): () => void {
    const subscription = this.ctx.nc.subscribe(this.ctx.names.endedSubject, {
      callback: (_err, msg) => {
        if (!msg) return;
        try {
          listener(decodeIds(msg.data));
        } catch (err) {
          this.ctx.log.warn({ err }, 'queue: ignoring an unreadable ended message');
        }
      },
    });
    return () => subscription.unsubscribe();
  }

  async reachable(): Promise<boolean> {
    // Disconnected (NATS restarting): say so at once; a request would wait out its timeout (issue 8).
    if (this.closing.signal.aborted || !natsConnected(this.ctx.nc)) return false;
    try {
      const { jsm } = await this.handles();
      await jsm.getAccountInfo();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Stops every consumer (no new pulls) and aborts the signal of the jobs in flight; their messages are
   * redelivered after the ack wait. Use Consumer.drain() first for a graceful stop. The connection stays
   * open: it belongs to the caller.
   */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort(new Error('job queue closed'));
    await Promise.all([...this.jobConsumers, ...this.resultConsumers].map((c) => c.stop()));
  }

  private handles(): Promise<QueueHandles> {
    if (!this.setup) {
      const setup = (async (): Promise<QueueHandles> => {
        const { nc, names } = this.ctx;
        const jsm = await jetstreamManager(nc, { timeout: this.ctx.requestTimeoutMs });
        const kv = await ensureQueueStreams(nc, jsm, names, this.settings);
        return { js: jetstream(nc, { timeout: this.ctx.requestTimeoutMs }), jsm, jobState: new JobStateStore(kv) };
      })();
      // A failed setup (NATS down) is attempted again by the next call.
      setup.catch(() => {
        if (this.setup === setup) this.setup = undefined;
      });
      this.setup = setup;
    }
    return this.setup;
  }

  private async ensureConsumers(queues: readonly AccountQueue[]): Promise<void> {
    const { jsm } = await this.handles();
    await Promise.all(
      queues.map((queue) => {
        let ready = this.consumersReady.get(queue.consumer);
        if (!ready) {
          ready = ensureQueueConsumer(jsm, this.ctx.names, queue, this.settings.ackWaitMs);
          const attempt = ready;
          // A failed creation is attempted again by the next pull round.
          attempt.catch(() => {
            if (this.consumersReady.get(queue.consumer) === attempt) this.consumersReady.delete(queue.consumer);
          });
          this.consumersReady.set(queue.consumer, attempt);
        }
        return ready;
      }),
    );
  }

  private assertOpen(): void {
    if (this.closing.signal.aborted) throw new Error('job queue closed');
  }

  /**
   * While the connection is down a publish would wait out its timeout (5 s per job) before failing:
   * fail at once instead, so the API answers promptly and the caller marks the record (issue 8).
   */
  private assertConnected(): void {
    if (!natsConnected(this.ctx.nc)) throw serviceUnavailable('The job queue (NATS) is unreachable; try again shortly');
  }
}
