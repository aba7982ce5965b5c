import type { Consumer } from '../../../core/contracts/job-queue.js';
import { InFlight } from '../in-flight.js';

/**
 * A consumer of the in-process queue or result bus: the work it is running, limited to `slots` at once,
 * and its drain. The queue hands it work while it has room and tracks the work in `inflight`.
 */
export class SlotConsumer implements Consumer {
  readonly inflight = new InFlight();
  private draining = false;

  constructor(
    private readonly slots: number,
    /** called once, when drain() starts: the queue stops handing this consumer work */
    private readonly onDrain: () => void,
  ) {}

  /** Whether this consumer may take one more piece of work now. */
  hasRoom(): boolean {
    return !this.draining && this.inflight.size < this.slots;
  }

  inFlight(): number {
    return this.inflight.size;
  }

  async drain(): Promise<void> {
    if (!this.draining) {
      this.draining = true;
      this.onDrain();
    }
    await this.inflight.idle();
  }
}
