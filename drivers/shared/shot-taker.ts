import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Deadline } from './deadline.js';
import { errorText } from './error-text.js';

/** How long a `target` selector may take to appear, as the API promises (or less: the deadline). */
export const TARGET_WAIT_MS = 30_000;

/** The three kinds of picture a driver can take of its page. */
export interface ShotSource {
  /** The first element matching `selector` once it is visible (waiting at most `timeoutMs`), as an image. */
  element(selector: string, timeoutMs: number): Promise<Buffer>;
  /** The full scrollable page, cut at the spec's max height and the farm's maximum (a cut it did not ask for adds to `warnings`). */
  fullPage(warnings: string[]): Promise<Buffer>;
  /** What the viewport shows. */
  viewport(): Promise<Buffer>;
}

/**
 * Takes the shots of one capture: the target element when it shows up in time, else the page. Remembers
 * a target that was not found, so later shots go straight to the page capture and the fallback is
 * reported once.
 */
export class ShotTaker {
  private targetAvailable: boolean;

  constructor(
    private readonly source: ShotSource,
    private readonly spec: CaptureSpec,
    private readonly warnings: string[],
  ) {
    this.targetAvailable = spec.target !== null;
  }

  async take(deadline: Deadline): Promise<Buffer> {
    if (this.targetAvailable && this.spec.target) {
      try {
        return await this.source.element(this.spec.target, deadline.timeout(TARGET_WAIT_MS));
      } catch (error) {
        deadline.check();
        this.targetAvailable = false;
        this.warnings.push(`The target ${this.spec.target} was not found in time (${errorText(error)}); the ${this.spec.size === 'page' ? 'full page' : 'viewport'} was captured instead.`);
      }
    }
    return this.spec.size === 'page' ? this.source.fullPage(this.warnings) : this.source.viewport();
  }
}
