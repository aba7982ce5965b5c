import type { BlockedCounts, PdfSpec, VideoSpec } from '../../core/capture-spec.js';
import type { Deadline } from './deadline.js';
import type { AddScriptTag } from './run-scripts.js';
import type { ShotSource } from './shot-taker.js';
import type { StepActions } from './run-steps.js';

/** A video being recorded from the page. */
export interface ScreencastRecording {
  /** Keeps recording up to the minimum duration, then returns the encoded video. */
  stop(signal: AbortSignal): Promise<Buffer>;
  /** Ends the recording and throws it away. */
  abort(): Promise<void>;
}

/**
 * One capture's fresh browser context (Playwright) or WebDriver session (Selenium), as the capture
 * pipeline opens, aborts and closes it.
 */
export interface CaptureSession {
  /** Sets the page up before its first navigation (emulation, blocking, interception, response tracking). */
  preparePage(): Promise<CapturePage>;
  /** Makes every pending browser call fail at once: the job was aborted. Returns at once. */
  abort(): void;
  /** Closes the context or session, whatever state it is in; never throws. */
  close(): Promise<void>;
}

/** What the capture pipeline asks of a driver's page: each driver implements this for its browser. */
export interface CapturePage {
  /** The browser and version, as the record shows it. */
  readonly browserInfo: string;
  readonly shots: ShotSource;
  readonly steps: StepActions;
  readonly addScriptTag: AddScriptTag;
  startScreencast(video: VideoSpec): Promise<ScreencastRecording>;
  /** Runs `source` (self-contained JavaScript) in every document the page opens from now on, before the page's own scripts. */
  addInitScript(source: string): Promise<void>;
  /**
   * Opens the spec's URL. Never throws for the page's sake: an unreachable page or a page that never
   * finishes loading is a warning, and the capture goes on with what the browser shows.
   */
  open(deadline: Deadline, warnings: string[]): Promise<void>;
  /** Runs a self-contained page function (drivers/page-scripts/) in the page with at most one argument. */
  evaluate<A extends [] | [unknown], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>;
  /** Runs before each shot, after popups were hidden; may add warnings, never throws for the page's sake. */
  beforeShot?(warnings: string[]): Promise<void>;
  /** What the page's requests blocked so far, per category (block-lists/request-blocker.ts); absent: nothing is blocked in it. */
  blockedCounts?(): BlockedCounts;
  /** The URL the page shows, or '' when it is not a web page (drivers/shared/shown-url.ts). */
  shownUrl(): Promise<string>;
  /** The status of the document the page shows, or null when it could not be reached. */
  responseCode(): number | null;
  html(): Promise<string>;
  pdf(pdf: PdfSpec): Promise<Buffer>;
}
