import type { BrowserName } from '../../core/capture-spec.js';
import { SETTLE_CAP_DEFAULT_SECONDS } from '../../core/config/settings.js';
import { DEFAULT_CAPTURE_LIMITS, type BrowserDriver, type BrowserHandle, type CaptureLimits, type LaunchOptions, type PngEncoding } from '../../core/contracts/browser-driver.js';
import { CHROMIUM_FLAGS } from '../shared/chromium-flags.js';
import { defaultFilterListPath } from '../shared/filter-list-path.js';
import { VideoEncoder } from '../video/video-encoder.js';
import { MaintainedEngines } from '../shared/block-lists/maintained-engines.js';
import type { CaptureServices } from './capture-job.js';
import { gridReady } from './grid-status.js';
import { SeleniumHandle } from './selenium-handle.js';

/** Settings of the Selenium driver, passed in by the composition root (nothing here reads the environment). */
export interface SeleniumDriverOptions {
  /** ffmpeg binary for videos (FFMPEG_PATH); `ffmpeg` on PATH by default */
  ffmpegPath?: string;
  /** filter list files in Adblock Plus syntax for hide_ads (SHOTFARM_AD_FILTER_LISTS); the repository's list by default */
  filterListFiles?: readonly string[];
  /** the job deadline when a spec's maxWait is 0, in seconds */
  defaultMaxWaitSeconds?: number;
  /** the longest settle wait after load (SHOTFARM_SETTLE_CAP_SECONDS), in seconds; the setting's default when absent */
  settleCapSeconds?: number;
  /** Chromium's PNG compression effort (core/contracts/browser-driver.ts); fast by default */
  pngEncoding?: PngEncoding;
  /** the farm's limits on one capture (tallest full page, pixel budget); core/contracts/browser-driver.ts's defaults */
  limits?: CaptureLimits;
}

/**
 * The deadline when a request leaves max_wait at 0: 30 s, as the Playwright driver (the API's
 * documented target fallback; pages that have not loaded by then rarely do).
 */
const DEFAULT_MAX_WAIT_SECONDS = 30;

/**
 * The flags of every session: the Chromium flags of every launch (drivers/shared/chromium-flags.ts; the
 * same reasons hold on a grid node) plus headless, because the captures must look the same whether or
 * not the node has a display.
 */
const SESSION_CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

/**
 * Captures on a Selenium Grid 4 (LaunchOptions.gridUrl). Chrome only: the grid relays CDP for
 * Chromium, which full-page shots, emulation, interception, video and PDF need; this repository's grid
 * has no geckodriver, and Brave's identity emulation is the Playwright driver's.
 */
export class SeleniumDriver implements BrowserDriver {
  readonly kind = 'selenium' as const;
  private readonly services: CaptureServices;

  constructor(options: SeleniumDriverOptions = {}) {
    this.services = {
      blockLists: new MaintainedEngines(options.filterListFiles ?? [defaultFilterListPath()]),
      videoEncoder: new VideoEncoder({ ffmpegPath: options.ffmpegPath ?? 'ffmpeg' }),
      chromeFlags: SESSION_CHROME_FLAGS,
      defaultMaxWaitMs: (options.defaultMaxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000,
      settleCapMs: (options.settleCapSeconds ?? SETTLE_CAP_DEFAULT_SECONDS) * 1000,
      pngEncoding: options.pngEncoding ?? 'fast',
      limits: options.limits ?? DEFAULT_CAPTURE_LIMITS,
    };
  }

  browsers(): BrowserName[] {
    return ['chrome'];
  }

  async launch(browser: BrowserName, opts: LaunchOptions): Promise<BrowserHandle> {
    if (browser !== 'chrome') throw new Error(`the selenium driver runs chrome only, not ${browser}`);
    if (!opts.gridUrl) throw new Error('the selenium driver needs LaunchOptions.gridUrl (the Selenium Grid URL)');
    // The block lists are built once per process, while the grid is asked, not in a capture's deadline.
    const [ready] = await Promise.all([gridReady(opts.gridUrl), this.services.blockLists.warm()]);
    if (!ready) throw new Error(`the Selenium Grid at ${opts.gridUrl} is not ready`);
    const info = `chromium (selenium grid ${opts.gridUrl}${opts.executablePath ? `, ${opts.executablePath}` : ''})`;
    return new SeleniumHandle(opts.gridUrl, opts.executablePath, info, this.services);
  }
}
