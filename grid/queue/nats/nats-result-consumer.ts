import type { JsMsg } from '@nats-io/jetstream';
import type { CaptureResult } from '../../../core/contracts/job-queue.js';
import { retryDelayMs } from '../backoff.js';
import { decodeResult } from './job-codec.js';
import { LoopingConsumer } from './looping-consumer.js';
import type { QueueContext } from './queue-context.js';

/**
 * JetStream's client refuses fetches that expire in under a second; a second is also as long as drain()
 * may wait for the fetch under way, and one request per second per idle api process is nothing to NATS.
 */
const FETCH_EXPIRES_MS = 1_000;

/**
 * One `onResult()`: fetches results from the shared durable `recorder` consumer in batches of
 * `concurrency`, applies them concurrently, acks each after its handler resolved (at least once), and
 * naks a failed one with the shared backoff so it comes back later. Every api process's onResult shares
 * the one durable, so each result is applied by one of them.
 */
export class NatsResultConsumer extends LoopingConsumer {
  constructor(
    ctx: QueueContext,
    private readonly handler: (result: CaptureResult) => Promise<void>,
    private readonly concurrency: number,
    onStopped: (consumer: NatsResultConsumer) => void,
  ) {
    super(ctx, 'fetching results', () => onStopped(this));
    this.startLoop();
  }

  /** Fetches one batch and applies it. */
  protected async turn(): Promise<void> {
    const { js } = await this.ctx.handles();
    const consumer = await js.consumers.get(this.ctx.names.resultsStream, this.ctx.names.resultsConsumer);
    const batch = await consumer.fetch({ max_messages: this.concurrency, expires: FETCH_EXPIRES_MS });
    for await (const msg of batch) this.inflight.track(this.apply(msg), () => undefined);
    // The next batch only when this one is applied: never more than `concurrency` at once.
    await this.inflight.idle();
  }

  private async apply(msg: JsMsg): Promise<void> {
    let result: CaptureResult;
    try {
      result = decodeResult(msg.data);
    } catch (err) {
      this.ctx.log.error({ err, seq: msg.seq }, 'queue: dropping an unreadable result message');
      msg.term();
      return;
    }
    try {
      await this.handler(result);
      msg.ack();
    } catch (err) {
      const delay = retryDelayMs(msg.info.deliveryCount, this.ctx.tuning);
      this.ctx.log.warn({ err, id: result.id, delay }, 'queue: result handler failed; the result is delivered again');
      msg.nak(delay);
    }
  }
}
