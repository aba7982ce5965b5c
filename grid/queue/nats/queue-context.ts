import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { CaptureResult } from '../../../core/contracts/job-queue.js';
import type { Logger } from '../../../core/logger.js';
import type { QueueTuning } from '../queue-tuning.js';
import type { JobStateStore } from './job-state.js';
import type { AccountQueue, QueueNames } from './subjects.js';

/** The JetStream handles, available once the streams, bucket and results consumer exist. */
export interface QueueHandles {
  js: JetStreamClient;
  jsm: JetStreamManager;
  jobState: JobStateStore;
}

/** What the NATS queue shares with its consumers. */
export interface QueueContext {
  nc: NatsConnection;
  names: QueueNames;
  tuning: QueueTuning;
  log: Logger;
  /** how long an idle consumer sleeps before looking again for delayed and redelivered jobs */
  idlePollMs: number;
  /** how long one request to the server (pull, ack) may take */
  requestTimeoutMs: number;
  /** aborted when the queue closes or its connection is lost for good */
  closing: AbortSignal;
  /** sets up streams and bucket once; a failure is retried on the next call */
  handles(): Promise<QueueHandles>;
  /** makes sure the account queues' durable consumers exist */
  ensureConsumers(queues: readonly AccountQueue[]): Promise<void>;
  /**
   * Forgets that an account queue's consumer exists, once it had nothing to give: the server deletes it
   * after an idle hour, and the next time its account has work it is looked up (or made) again.
   */
  forgetConsumer(queue: AccountQueue): void;
  /**
   * Forgets that the streams, bucket and account queues' consumers exist, after a request failed: someone may have
   * deleted them (NATS wiped, a stream removed by hand), and the next call then sets them up again.
   */
  invalidate(): void;
  publishResult(result: CaptureResult): Promise<void>;
}
