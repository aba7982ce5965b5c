import { AckPolicy, DeliverPolicy, JetStreamApiCodes, JetStreamApiError, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { openTtlBucket } from '../../nats/kv-bucket.js';
import type { Lane, QueueNames } from './subjects.js';

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

/** The durable pull consumer of one lane, shared by every agent serving it. */
export async function ensureLaneConsumer(jsm: JetStreamManager, names: QueueNames, lane: Lane, ackWaitMs: number): Promise<void> {
  await ensureDurable(jsm, names.jobsStream, { durable_name: lane.consumer, filter_subject: lane.subject, ack_wait: nanos(ackWaitMs) });
}

/**
 * Explicit acks; unlimited deliveries, because the queue counts deliveries itself and publishes an
 * error result for the job (JetStream's own max_deliver would drop it silently); unlimited ack-pending,
 * because each agent's slots bound what it holds and the farm's total is the sum of its slots.
 */
async function ensureDurable(jsm: JetStreamManager, stream: string, config: { durable_name: string; filter_subject: string; ack_wait: number }): Promise<void> {
  const full = { ...config, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, max_deliver: -1, max_ack_pending: -1 };
  try {
    const info = await jsm.consumers.info(stream, config.durable_name);
    if (info.config.ack_wait !== config.ack_wait) await jsm.consumers.update(stream, config.durable_name, { ack_wait: config.ack_wait });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    // Two agents may create the same lane at once; creating with an identical config is idempotent.
    await jsm.consumers.add(stream, full);
  }
}
