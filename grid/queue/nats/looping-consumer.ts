import type { Consumer } from '../../../core/contracts/job-queue.js';
import { InFlight } from '../in-flight.js';
import type { QueueContext } from './queue-context.js';
import { WakeSignal } from './wake-signal.js';

/**
 * What the NATS queue's consumers share: a loop that takes work turn after turn until the consumer is
 * stopped or the queue closes, the work in flight, and stop/drain. A turn that fails is logged, the
 * queue's setup is forgotten (someone may have deleted it) and the loop waits `idlePollMs` before the
 * next turn, unless a stop wakes it first.
 */
export abstract class LoopingConsumer implements Consumer {
  protected readonly inflight = new InFlight();
  /** wakes the loop from a wait: work arrived, a slot freed, stop */
  protected readonly wake = new WakeSignal();
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    protected readonly ctx: QueueContext,
    /** what a turn does, for the log line of a failed one ("pulling jobs") */
    private readonly activity: string,
    private readonly onStopped: () => void,
  ) {}

  inFlight(): number {
    return this.inflight.size;
  }

  /** Stops taking work, waits for the work in flight to settle (SIGTERM drain of an agent). */
  async drain(): Promise<void> {
    await this.stop();
    await this.inflight.idle();
  }

  /** Stops taking work without waiting for the work in flight (the queue is closing). */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.wake.kick();
      this.stopped();
      this.onStopped();
    }
    await this.loop;
  }

  /** Starts the loop; a subclass calls it last in its constructor, once its own fields are set. */
  protected startLoop(): void {
    this.loop = this.run();
  }

  /** Called once when stop() begins, before the queue forgets this consumer. */
  protected stopped(): void {}

  protected done(): boolean {
    return this.stopping || this.ctx.closing.aborted || this.ctx.nc.isClosed();
  }

  /** One turn: take work (or wait for it); a rejection is a failed turn. */
  protected abstract turn(): Promise<void>;

  private async run(): Promise<void> {
    while (!this.done()) {
      try {
        await this.turn();
      } catch (err) {
        if (this.done()) break;
        this.ctx.log.warn({ err }, `queue: ${this.activity} failed; retrying`);
        this.ctx.invalidate();
        await this.wake.wait(this.ctx.idlePollMs);
      }
    }
  }
}
