import type { Logger } from '../../core/logger.js';
import type { SubscriptionRenewal } from './renewal.js';

/**
 * Runs the renewal at start and then every `intervalSeconds`, one run at a time (the next is planned
 * when the last has finished, so a slow run never overlaps itself). stop() cancels the next run and
 * waits for the one in progress, so shutdown never cuts a renewal's transaction short.
 */
export class RenewalScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly renewal: SubscriptionRenewal,
    private readonly intervalSeconds: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.plan(0);
  }

  private plan(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = null;
        this.plan(this.intervalSeconds * 1000);
      });
    }, delayMs);
    // A pending renewal never keeps the process alive on its own.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      const done = await this.renewal.renewDue();
      if (done > 0) this.log.info({ renewed: done }, 'subscriptions renewed');
    } catch (err) {
      this.log.error({ err }, 'subscription renewal run failed');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
