/**
 * Lets a consumer loop sleep until something happens (a job was published, a slot freed, drain) or a
 * timeout passes. A kick that comes while nobody waits is remembered, so no wake-up is lost between
 * the loop's last check and its next wait.
 */
export class WakeSignal {
  private kicked = false;
  private wakeWaiter: (() => void) | undefined;

  kick(): void {
    this.kicked = true;
    this.wakeWaiter?.();
  }

  async wait(timeoutMs: number): Promise<void> {
    if (!this.kicked) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.wakeWaiter = undefined;
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        this.wakeWaiter = done;
      });
    }
    this.kicked = false;
  }
}
