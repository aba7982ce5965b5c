import type { CaptureResult, Consumer } from '../../../core/contracts/job-queue.js';
import type { Logger } from '../../../core/logger.js';
import { retryDelayMs } from '../backoff.js';
import type { QueueTuning } from '../queue-tuning.js';
import { SlotConsumer } from './slot-consumer.js';

interface PendingResult {
  result: CaptureResult;
  deliveries: number;
}
type ResultHandler = (result: CaptureResult) => Promise<void>;

/**
 * Results of the in-process queue: each result goes to ONE of the `onResult` consumers (like a durable
 * JetStream consumer shared by several api processes), is kept until a handler resolves on it, and is
 * handed over again after a growing delay when the handler throws. Results published while nobody listens
 * wait for the first listener.
 */
export class MemoryResultBus {
  private readonly pending: PendingResult[] = [];
  private readonly consumers: ResultConsumer[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private next = 0;

  constructor(
    private readonly tuning: QueueTuning,
    /** results one handler may be applying at once; the recorder is idempotent, so order is free */
    private readonly concurrency: number,
    private readonly log: Logger,
  ) {}

  publish(result: CaptureResult): void {
    // A copy: the recorder must see what was published, not what the agent's object became afterwards.
    this.pending.push({ result: structuredClone(result), deliveries: 0 });
    this.pump();
  }

  subscribe(handler: ResultHandler): Consumer {
    const consumer = new ResultConsumer(handler, this.concurrency, (c) => {
      this.consumers.splice(this.consumers.indexOf(c), 1);
    });
    this.consumers.push(consumer);
    this.pump();
    return consumer;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.pending.length = 0;
  }

  private pump(): void {
    while (this.pending.length > 0) {
      const consumer = this.nextWithRoom();
      if (!consumer) return;
      const item = this.pending.shift() as PendingResult;
      item.deliveries += 1;
      consumer.inflight.track(this.deliver(consumer, item), () => this.pump());
    }
  }

  /** Round robin over the consumers that have room, so several recorders share the load. */
  private nextWithRoom(): ResultConsumer | undefined {
    for (let i = 0; i < this.consumers.length; i += 1) {
      const consumer = this.consumers[(this.next + i) % this.consumers.length] as ResultConsumer;
      if (consumer.hasRoom()) {
        this.next = (this.next + i + 1) % this.consumers.length;
        return consumer;
      }
    }
    return undefined;
  }

  private async deliver(consumer: ResultConsumer, item: PendingResult): Promise<void> {
    try {
      await consumer.handler(item.result);
    } catch (err) {
      const delay = retryDelayMs(item.deliveries, this.tuning);
      this.log.warn({ err, id: item.result.id, delay }, 'queue: result handler failed; the result is handed over again');
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.pending.unshift(item);
        this.pump();
      }, delay);
      this.timers.add(timer);
    }
  }
}

/** One `onResult()` of the in-process queue: its handler, applying at most `concurrency` results at once. */
class ResultConsumer extends SlotConsumer {
  constructor(
    readonly handler: ResultHandler,
    concurrency: number,
    onDrain: (consumer: ResultConsumer) => void,
  ) {
    super(concurrency, () => onDrain(this));
  }
}
