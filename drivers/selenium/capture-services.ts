import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import type { VideoEncoder } from '../video/video-encoder.js';
import type { AdBlockEngine } from './ad-block.js';

/** What a capture needs besides the grid, shared by all captures of a driver. */
export interface SeleniumCaptureServices {
  adBlock: AdBlockEngine;
  videoEncoder: VideoEncoder;
  /** Chromium flags every session starts with */
  chromeFlags: readonly string[];
  /** the job deadline when a spec's maxWait is 0 ("service default"), in ms */
  defaultMaxWaitMs: number;
  /** the longest settle wait after load (SHOTFARM_SETTLE_CAP_SECONDS), in ms */
  settleCapMs: number;
  pngEncoding: PngEncoding;
  /** the tallest full-page capture in CSS pixels (SHOTFARM_MAX_PAGE_HEIGHT) */
  maxPageHeight: number;
}
