import { AckPolicy, DeliverPolicy, JetStreamApiCodes, JetStreamApiError, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { openTtlBucket } from '../../nats/kv-bucket.js';
import type { AccountQueue, QueueNames } from './subjects.js';

export interface StreamSettings {
  /** how long JetStream remembers a msgID (the record id) to drop a re-published duplicate */
  duplicateWindowMs: number;
  /** how long a job's state (queued / started / cancelled) is kept in the KV bucket */
  jobStateTtlMs: number;
  /** results the recorder has not acknowledged this long are delivered again */
  resultAckWaitMs: number;
}

function isNotFound(err: unknown): boolean {
  return err instanceof JetStreamApiError && (err.code === JetStreamApiCodes.StreamNotFound || err.code === JetStreamApiCodes.ConsumerNotFound);
}

/** Creates a stream, or brings an existing one's subjects and duplicate window in line. */
async function ensureStream(jsm: JetStreamManager, config: StreamConfig): Promise<void> {
  try {
    const info = await jsm.streams.info(config.name);
    const same = info.config.duplicate_window === config.duplicate_window && info.config.subjects?.join() === config.subjects?.join();
    if (!same) await jsm.streams.update(config.name, { subjects: config.subjects, duplicate_window: config.duplicate_window });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await jsm.streams.add(config);
  }
}

/**
 * Both streams use work-queue retention: a message is removed once acknowledged, so the stream IS the
 * backlog. File storage keeps jobs and unapplied results across a NATS restart. No max_age: a job must
 * end with a result, never silently expire.
 */
export async function ensureQueueStreams(nc: NatsConnection, jsm: JetStreamManager, names: QueueNames, settings: StreamSettings): Promise<KV> {
  const common = {
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    duplicate_window: nanos(settings.duplicateWindowMs),
  };
  await ensureStream(jsm, { ...common, name: names.jobsStream, subjects: [names.allJobs] } as StreamConfig);
  await ensureStream(jsm, { ...common, name: names.resultsStream, subjects: [names.resultsSubject] } as StreamConfig);
  await ensureDurable(jsm, names.resultsStream, {
    durable_name: names.resultsConsumer,
    filter_subject: names.resultsSubject,
    ack_wait: nanos(settings.resultAckWaitMs),
  });
  // The TTL bounds the bucket should jobs never be settled (queue wiped, consumers deleted by hand).
  return openTtlBucket(nc, names.jobStateBucket, settings.jobStateTtlMs);
}

/**
 * How long an account queue's consumer outlives its last pull: the server then deletes it (its jobs, if
 * any, stay in the stream, and the next agent to find them creates it again). One per account and lane
 * exists while the account has work; an hour keeps the count bounded by the accounts active in the last
 * hour, and is far longer than any job is held (ack wait, working() calls) or any turn of the rotation.
 */
const ACCOUNT_QUEUE_INACTIVE_MS = 60 * 60_000;

/** The durable pull consumer of one account queue, shared by every agent serving its lane. */
export async function ensureQueueConsumer(jsm: JetStreamManager, names: QueueNames, queue: AccountQueue, ackWaitMs: number): Promise<void> {
  await ensureDurable(jsm, names.jobsStream, { durable_name: queue.consumer, filter_subject: queue.subject, ack_wait: nanos(ackWaitMs) }, nanos(ACCOUNT_QUEUE_INACTIVE_MS));
}

/**
 * Explicit acks; unlimited deliveries, because the queue counts deliveries itself and publishes an
 * error result for the job (JetStream's own max_deliver would drop it silently); unlimited ack-pending,
 * because each agent's slots bound what it holds and the farm's total is the sum of its slots.
 */
async function ensureDurable(jsm: JetStreamManager, stream: string, config: { durable_name: string; filter_subject: string; ack_wait: number }, inactiveThreshold?: number): Promise<void> {
  const full = {
    ...config,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    max_deliver: -1,
    max_ack_pending: -1,
    ...(inactiveThreshold ? { inactive_threshold: inactiveThreshold } : {}),
  };
  try {
    const info = await jsm.consumers.info(stream, config.durable_name);
    if (info.config.ack_wait !== config.ack_wait) await jsm.consumers.update(stream, config.durable_name, { ack_wait: config.ack_wait });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    // Two agents may create the same lane at once; creating with an identical config is idempotent.
    await jsm.consumers.add(stream, full);
  }
}
