import type { CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import type { CaptureLimits, PngEncoding } from '../../core/contracts/browser-driver.js';
import type { VideoEncoder } from '../video/video-encoder.js';
import { runCapturePipeline } from '../shared/capture-pipeline.js';
import type { MaintainedEngines } from '../shared/block-lists/maintained-engines.js';
import type { Engine } from './engine.js';
import { PlaywrightSession } from './playwright-session.js';
import type { CaptureContext } from './prepared-contexts.js';
import { unsupportedOptionWarnings } from './unsupported-options.js';

/** What a capture needs besides the browser, shared by all captures of a driver. */
export interface CaptureServices {
  /** the block lists' engines (AdGuard's lists and SHOTFARM_AD_FILTER_LISTS), built once per process */
  blockLists: MaintainedEngines;
  videoEncoder: VideoEncoder;
  /** the deadline used when a spec's maxWait is 0 ("service default"), in ms */
  defaultMaxWaitMs: number;
  /** the longest settle wait after load (SHOTFARM_SETTLE_CAP_SECONDS), in ms */
  settleCapMs: number;
  pngEncoding: PngEncoding;
  /** the farm's limits on one capture: tallest full page, pixel budget */
  limits: CaptureLimits;
}

/**
 * One capture in a fresh BrowserContext (`open`: made now, or prepared for it; prepared-contexts.ts), closed
 * in `finally` whatever happens: the flow of drivers/shared/capture-pipeline.ts on a Playwright page.
 * Options this engine cannot honour start the warnings; only the abort signal (job cancelled) makes it throw.
 */
export async function runCapture(open: () => Promise<CaptureContext>, engine: Engine, info: string, spec: CaptureSpec, signal: AbortSignal, services: CaptureServices): Promise<CaptureOutput> {
  const settings = { defaultMaxWaitMs: services.defaultMaxWaitMs, settleCapMs: services.settleCapMs, warnings: unsupportedOptionWarnings(spec, engine) };
  return runCapturePipeline(spec, signal, settings, async () => new PlaywrightSession(await open(), spec, engine, info, services));
}
