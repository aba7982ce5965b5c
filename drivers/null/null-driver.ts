import { BROWSERS, type BrowserName, type CaptureOutput, type CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserDriver, BrowserHandle } from '../../core/contracts/browser-driver.js';
import { abortableSleep } from '../shared/abortable-sleep.js';

/**
 * The NULL DRIVER: a benchmark-and-test-only BrowserDriver that starts no browser and answers every
 * capture with one stored image after a fixed delay. It exists so that the control plane (api, queue,
 * recorder, storage) can be measured and tested with hundreds of slots that cost nothing (`make
 * bench-farm`, the fairness test). It captures nothing: an agent runs it only when SHOTFARM_DRIVER=null
 * AND SHOTFARM_ALLOW_NULL_DRIVER=true (load-config.ts refuses the first without the second).
 */

/** A real 4×3 PNG, made once with sharp (`sharp({create: {width: 4, height: 3, channels: 3, background: '#3a7'}}).png()`). */
export const NULL_DRIVER_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWMwXlUORww4OQAzzg/xUTK2PQAAAABJRU5ErkJggg==', 'base64');

export interface NullDriverOptions {
  /** how long every capture takes, in ms (what a real browser would spend) */
  delayMs: number;
  /** the image every shot answers with; the built-in 4×3 PNG when absent */
  image?: Buffer;
}

class NullBrowserHandle implements BrowserHandle {
  readonly info: string;
  private closed = false;

  constructor(
    readonly browser: BrowserName,
    private readonly options: Required<NullDriverOptions>,
  ) {
    this.info = `null driver (${browser}: no browser, a stored image after ${options.delayMs} ms)`;
  }

  async capture(spec: CaptureSpec, signal: AbortSignal): Promise<CaptureOutput> {
    if (this.closed) throw new Error('null browser handle is closed');
    if (this.options.delayMs > 0) await abortableSleep(this.options.delayMs, signal);
    else signal.throwIfAborted();
    const shots = Math.max(1, spec.shots);
    return {
      images: Array.from({ length: shots }, () => this.options.image),
      // Its one stored image, whatever the spec asks: the null driver measures the farm, not encoders.
      imageFormat: 'png',
      html: null,
      markdown: null,
      metadata: null,
      pdf: null,
      video: null,
      finalUrl: spec.url,
      finalUrls: Array.from({ length: shots }, () => spec.url),
      responseCode: 200,
      links: [],
      trackers: [],
      userAgent: 'shotfarm null driver',
      browserInfo: this.info,
      warnings: [],
      blank: false,
      conditionFailed: null,
      blocked: { ads: 0, trackers: 0, chats: 0, social: 0, resources: 0, urls: 0 },
      timings: { null_delay: this.options.delayMs },
    };
  }

  healthy(): Promise<boolean> {
    return Promise.resolve(!this.closed);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

export class NullDriver implements BrowserDriver {
  readonly kind = 'null' as const;
  private readonly options: Required<NullDriverOptions>;

  constructor(options: NullDriverOptions) {
    if (!Number.isFinite(options.delayMs) || options.delayMs < 0) throw new Error(`null driver: delayMs must be >= 0, got ${options.delayMs}`);
    this.options = { delayMs: options.delayMs, image: options.image ?? NULL_DRIVER_PNG };
  }

  browsers(): BrowserName[] {
    return [...BROWSERS];
  }

  launch(browser: BrowserName): Promise<BrowserHandle> {
    return Promise.resolve(new NullBrowserHandle(browser, this.options));
  }
}
