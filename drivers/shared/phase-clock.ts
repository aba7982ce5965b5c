/** Times the phases of a capture into CaptureOutput.timings (ms per phase, plus `total`). */
export class PhaseClock {
  readonly timings: Record<string, number> = {};
  private last = Date.now();
  private readonly started = this.last;

  lap(phase: string): void {
    const now = Date.now();
    this.timings[phase] = (this.timings[phase] ?? 0) + (now - this.last);
    this.last = now;
  }

  total(): Record<string, number> {
    return { ...this.timings, total: Date.now() - this.started };
  }
}
