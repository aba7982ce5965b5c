import type { BrowserName } from '../../../core/capture-spec.js';
import type { CaptureJob, Consumer, JobHandler } from '../../../core/contracts/job-queue.js';
import { agentAcceptsCountry } from '../country-routing.js';
import { InFlight } from '../in-flight.js';

/** One `consume()` of the in-process queue: what it accepts, its slots and the jobs it is running. */
export class MemoryJobConsumer implements Consumer {
  readonly inflight = new InFlight();
  private draining = false;
  private readonly browsers: ReadonlySet<BrowserName>;

  constructor(
    browsers: readonly BrowserName[],
    private readonly slots: number,
    readonly handler: JobHandler,
    private readonly countries: readonly string[],
    private readonly onDrain: (consumer: MemoryJobConsumer) => void,
  ) {
    this.browsers = new Set(browsers);
  }

  /** Whether this consumer may take one more job now. */
  hasRoom(): boolean {
    return !this.draining && this.inflight.size < this.slots;
  }

  accepts(job: CaptureJob): boolean {
    return this.browsers.has(job.spec.browser) && agentAcceptsCountry(this.countries, job);
  }

  inFlight(): number {
    return this.inflight.size;
  }

  async drain(): Promise<void> {
    if (!this.draining) {
      this.draining = true;
      this.onDrain(this);
    }
    await this.inflight.idle();
  }
}
