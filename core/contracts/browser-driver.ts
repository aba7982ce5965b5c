import type { BrowserName, CaptureOutput, CaptureSpec } from '../capture-spec.js';
import { DEFAULT_MAX_CAPTURE_MEGAPIXELS } from '../pixel-budget.js';

/** `null` is the benchmark-and-test-only driver (drivers/null/null-driver.ts), never chosen by default. */
export const DRIVER_KINDS = ['playwright', 'selenium', 'null'] as const;
export type DriverKind = (typeof DRIVER_KINDS)[number];

/**
 * How Chromium encodes PNG screenshots (CDP Page.captureScreenshot's `optimizeForSpeed`). The pixels are
 * the same either way (PNG is lossless); only the compression effort differs. Measured here (Chromium 156,
 * 1280 px wide text page): viewport 76 → 41 ms, an 11,050 px full page 1,160–1,270 → 550–610 ms, files
 * 1.3× (viewport) to 1.65× (full page) larger; flat-colour test pages grow up to 3.7×.
 * - fast: a farm's scarce resource is browser CPU, so this is the default;
 * - small: for deployments that pay more for storage and transfer than for CPU.
 * Firefox's WebDriver BiDi screenshot has no such choice.
 */
export type PngEncoding = 'fast' | 'small';
export const PNG_ENCODINGS: readonly PngEncoding[] = ['fast', 'small'];

/**
 * The tallest full-page capture in CSS pixels (SHOTFARM_MAX_PAGE_HEIGHT); a taller page is cut there
 * with a warning. It bounds the output (a 1280×100,000 PNG is 512 MB of pixels to encode) whatever the
 * page, since a page can be made endlessly tall.
 */
export const DEFAULT_MAX_PAGE_HEIGHT = 100_000;

/**
 * The memory ceiling of one browser process during a capture, resident MB (SHOTFARM_PAGE_MEMORY_LIMIT_MB;
 * drivers/shared/process-memory-watch.ts). Measured here: the largest process of a Chromium full page at
 * the whole pixel budget, in tiles, held 0.27–0.32 GB; Firefox's main process holds ~0.4 GB on a plain
 * page, 0.56 GB during a 1280 × 100,000 full page. 2 GB leaves 4–6× that to real
 * pages and stops a runaway one long before the 15.5 GB of issue 25 (or V8's own ~4 GB heap limit, which
 * only bounds script objects).
 */
export const DEFAULT_PAGE_MEMORY_LIMIT_MB = 2048;

/** The farm's limits on one capture, as the drivers apply them. */
export interface CaptureLimits {
  /** the tallest full page in CSS pixels (SHOTFARM_MAX_PAGE_HEIGHT) */
  maxPageHeight: number;
  /** the pixel budget in device pixels (SHOTFARM_MAX_CAPTURE_MEGAPIXELS) */
  maxCapturePixels: number;
}

export const DEFAULT_CAPTURE_LIMITS: CaptureLimits = { maxPageHeight: DEFAULT_MAX_PAGE_HEIGHT, maxCapturePixels: DEFAULT_MAX_CAPTURE_MEGAPIXELS * 1_000_000 };

/** How a browser process is started; one pool exists per (driver, browser, launch variant). */
export interface LaunchOptions {
  /** executable to run instead of the configured default (a Brave binary, a Chrome build) */
  executablePath?: string;
  /** launch variants that cannot be changed per context: Firefox's dark mode is a browser pref */
  dark?: boolean;
  /** Selenium Grid hub URL, for the selenium driver */
  gridUrl?: string;
  /**
   * The egress guard (http://127.0.0.1:PORT, no credentials) as the proxy of the whole browser, when SSRF
   * protection is on: whatever no capture claims goes there and is refused, nothing goes direct.
   */
  egressProxy?: string;
  /**
   * Pending credentials of the egress guard for a browser context made before its capture (when SSRF
   * protection is on and the guard tells captures apart by credentials): see PreparedEgress.
   */
  prepareEgress?: () => PreparedEgress;
}

/**
 * The egress guard's credentials for a context made ahead of its capture. Pending, the guard refuses every
 * request made with them (407, as for unknown credentials): a prepared context reaches nothing. Bound, they
 * stand for the capture's own pass (its record id, country proxy and refusal log) until that pass closes.
 */
export interface PreparedEgress {
  /** http://prepared:<random password>@127.0.0.1:<guard port> */
  proxy: string;
  /** Binds them, once, to the open pass whose proxy URL is `captureProxy` (the spec's proxy); false: they stay pending. */
  bind(captureProxy: string): boolean;
  close(): void;
}

/** A started browser. Each capture runs in a fresh context (or session) that is closed afterwards. */
export interface BrowserHandle {
  readonly browser: BrowserName;
  /** the real product and version that runs, e.g. `chromium 156.0.8078.73 (brave emulation)` */
  readonly info: string;
  capture(spec: CaptureSpec, signal: AbortSignal): Promise<CaptureOutput>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * Registers a listener called once when the browser goes away without `close()` (a crash, a killed
   * process, a dropped grid session), so a pool can destroy the handle at once instead of finding
   * it dead on the next borrow. Optional: a driver that cannot tell leaves the pool to `healthy()`.
   */
  onDisconnected?(listener: () => void): void;
}

export interface BrowserDriver {
  readonly kind: DriverKind;
  browsers(): BrowserName[];
  launch(browser: BrowserName, opts: LaunchOptions): Promise<BrowserHandle>;
}
