import type { WebDriver } from 'selenium-webdriver';
import type { CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import { runCapturePipeline } from '../shared/capture-pipeline.js';
import type { CaptureLimits, PngEncoding } from '../../core/contracts/browser-driver.js';
import type { VideoEncoder } from '../video/video-encoder.js';
import type { MaintainedEngines } from '../shared/block-lists/maintained-engines.js';
import { sessionCapabilities } from './capabilities.js';
import { openSession } from './open-session.js';
import { SeleniumSession } from './selenium-session.js';

/** What a capture needs besides the grid, shared by all captures of a driver. */
export interface CaptureServices {
  /** the block lists' engines (AdGuard's lists and SHOTFARM_AD_FILTER_LISTS), built once per process */
  blockLists: MaintainedEngines;
  videoEncoder: VideoEncoder;
  /** Chromium flags every session starts with */
  chromeFlags: readonly string[];
  /** the job deadline when a spec's maxWait is 0 ("service default"), in ms */
  defaultMaxWaitMs: number;
  /** the longest settle wait after load (SHOTFARM_SETTLE_CAP_SECONDS), in ms */
  settleCapMs: number;
  pngEncoding: PngEncoding;
  /** the farm's limits on one capture: tallest full page, pixel budget */
  limits: CaptureLimits;
}

/**
 * One capture in a fresh WebDriver session on the grid, quit in `finally` whatever happens: the flow of
 * drivers/shared/capture-pipeline.ts, with the phases, deadline rules and warning sentences of the
 * Playwright driver; only the abort signal makes it throw.
 */
export async function runCapture(
  gridUrl: string,
  binary: string | undefined,
  spec: CaptureSpec,
  signal: AbortSignal,
  services: CaptureServices,
  /** the handle's open sessions, so that closing the handle can end them */
  sessions: Set<WebDriver>,
): Promise<CaptureOutput> {
  const open = async (): Promise<SeleniumSession> => new SeleniumSession(await openSession(gridUrl, sessionCapabilities(spec, services.chromeFlags, binary)), spec, services, sessions);
  try {
    return await runCapturePipeline(spec, signal, { defaultMaxWaitMs: services.defaultMaxWaitMs, settleCapMs: services.settleCapMs, warnings: [] }, open);
  } catch (error) {
    // Calls fail in many ways once the session is gone; the job's cancellation is the reason to report.
    signal.throwIfAborted();
    throw error;
  }
}
