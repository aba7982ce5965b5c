import type { BrowserName } from '../../../core/capture-spec.js';
import type { CaptureJob, JobHandler } from '../../../core/contracts/job-queue.js';
import { agentAcceptsCountry } from '../country-routing.js';
import { SlotConsumer } from './slot-consumer.js';

/** One `consume()` of the in-process queue: what it accepts, its slots and the jobs it is running. */
export class MemoryJobConsumer extends SlotConsumer {
  private readonly browsers: ReadonlySet<BrowserName>;

  constructor(
    browsers: readonly BrowserName[],
    slots: number,
    readonly handler: JobHandler,
    private readonly countries: readonly string[],
    onDrain: (consumer: MemoryJobConsumer) => void,
  ) {
    super(slots, () => onDrain(this));
    this.browsers = new Set(browsers);
  }

  accepts(job: CaptureJob): boolean {
    return this.browsers.has(job.spec.browser) && agentAcceptsCountry(this.countries, job);
  }
}
