/**
 * Turns frames that arrive irregularly into a constant frame rate, by their arrival time.
 * Screencasts do not tick: Chromium sends a frame only when the page repaints (none for seconds on a
 * still page, bursts during animation) and Firefox's is a screenshot loop whose pace depends on load.
 * An encoder fed "frame N at N/fps" needs exactly one frame per slot of 1/fps seconds, so:
 * - a slot with no new frame repeats the previous one (duplicate),
 * - several frames in one slot keep only the newest (drop).
 * Time starts at the first frame: before it there is nothing to show.
 */
export class ConstantFrameRate<Frame> {
  private startedAt: number | null = null;
  private held: Frame | null = null;
  private emitted = 0;

  constructor(
    private readonly fps: number,
    private readonly emit: (frame: Frame) => void,
  ) {
    if (!(fps > 0)) throw new Error(`fps must be positive, got ${fps}`);
  }

  /** Frames written so far. */
  get frames(): number {
    return this.emitted;
  }

  /** Milliseconds since the first frame, or 0 before it. */
  elapsed(now: number): number {
    return this.startedAt === null ? 0 : now - this.startedAt;
  }

  private slotAt(now: number): number {
    return Math.floor(((now - (this.startedAt ?? now)) * this.fps) / 1000);
  }

  /** A frame that arrived at `now` (milliseconds, monotonic). */
  push(frame: Frame, now: number): void {
    if (this.startedAt === null) this.startedAt = now;
    this.fill(this.slotAt(now));
    this.held = frame;
  }

  /** Ends the stream at `now`: the last frame fills the remaining slots. Returns the frame count. */
  finish(now: number): number {
    if (this.held === null) return 0;
    // At least one frame, and every slot up to `now` filled (the slot in progress counts).
    this.fill(Math.max(1, Math.ceil(((now - (this.startedAt ?? now)) * this.fps) / 1000)));
    return this.emitted;
  }

  private fill(untilSlot: number): void {
    while (this.held !== null && this.emitted < untilSlot) {
      this.emit(this.held);
      this.emitted += 1;
    }
  }
}
