import type { Browser } from 'playwright-core';
import type { BrowserName } from '../../core/capture-spec.js';
import { SETTLE_CAP_DEFAULT_SECONDS } from '../../core/config/settings.js';
import {
  DEFAULT_CAPTURE_LIMITS,
  DEFAULT_PAGE_MEMORY_LIMIT_MB,
  type BrowserDriver,
  type BrowserHandle,
  type CaptureLimits,
  type LaunchOptions,
  type PngEncoding,
} from '../../core/contracts/browser-driver.js';
import { defaultFilterListPath } from '../shared/filter-list-path.js';
import { BrowserProcessMark, ProcessMemoryWatch } from '../shared/process-memory-watch.js';
import { VideoEncoder } from '../video/video-encoder.js';
import { MaintainedEngines } from '../shared/block-lists/maintained-engines.js';
import type { CaptureServices } from './capture-job.js';
import type { Engine } from './engine.js';
import { launchChromium, launchFirefox } from './launch-browser.js';
import { PlaywrightHandle } from './playwright-handle.js';
import { PreparedContexts } from './prepared-contexts.js';

/** Settings of the Playwright driver, passed in by the composition root (nothing here reads the environment). */
export interface PlaywrightDriverOptions {
  /** Chromium binary for chrome and emulated brave; Debian's by default */
  chromiumPath?: string;
  /** Firefox binary, driven over WebDriver BiDi; Debian's ESR by default */
  firefoxPath?: string;
  /** ffmpeg binary for videos (FFMPEG_PATH); `ffmpeg` on PATH by default */
  ffmpegPath?: string;
  /** filter list files in Adblock Plus syntax for hide_ads and brave's shields (SHOTFARM_AD_FILTER_LISTS); the repository's list by default */
  filterListFiles?: readonly string[];
  /** the job deadline when a spec's maxWait is 0, in seconds */
  defaultMaxWaitSeconds?: number;
  /** the longest settle wait after load (SHOTFARM_SETTLE_CAP_SECONDS), in seconds; the setting's default when absent */
  settleCapSeconds?: number;
  /** Chromium's PNG compression effort (core/contracts/browser-driver.ts); fast by default */
  pngEncoding?: PngEncoding;
  /** the farm's limits on one capture (tallest full page, pixel budget); core/contracts/browser-driver.ts's defaults */
  limits?: CaptureLimits;
  /** the memory ceiling of one browser process during a capture, MB (SHOTFARM_PAGE_MEMORY_LIMIT_MB) */
  pageMemoryLimitMb?: number;
  /** make the next capture's context and page ahead, Chromium only (SHOTFARM_PREPARE_CONTEXTS); on by default */
  prepareContexts?: boolean;
}

const DEFAULT_CHROMIUM = '/usr/lib/chromium/chromium';
const DEFAULT_FIREFOX = '/usr/bin/firefox-esr';
/**
 * The deadline when a request leaves max_wait at 0: 30 s is the API's documented target fallback, and
 * pages that have not loaded by then rarely do.
 */
const DEFAULT_MAX_WAIT_SECONDS = 30;

/** Launches Playwright browsers: chrome (Chromium), firefox (Firefox ESR over BiDi), brave (binary or emulation). */
export class PlaywrightDriver implements BrowserDriver {
  readonly kind = 'playwright' as const;
  private readonly services: CaptureServices;

  constructor(private readonly options: PlaywrightDriverOptions = {}) {
    this.services = {
      blockLists: new MaintainedEngines(options.filterListFiles ?? [defaultFilterListPath()]),
      videoEncoder: new VideoEncoder({ ffmpegPath: options.ffmpegPath ?? 'ffmpeg' }),
      defaultMaxWaitMs: (options.defaultMaxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000,
      settleCapMs: (options.settleCapSeconds ?? SETTLE_CAP_DEFAULT_SECONDS) * 1000,
      pngEncoding: options.pngEncoding ?? 'fast',
      limits: options.limits ?? DEFAULT_CAPTURE_LIMITS,
    };
  }

  browsers(): BrowserName[] {
    return ['chrome', 'firefox', 'brave'];
  }

  async launch(browser: BrowserName, opts: LaunchOptions): Promise<BrowserHandle> {
    const mark = new BrowserProcessMark();
    // The block lists are built once per process, while the browser starts, not in a capture's deadline.
    const [{ playwrightBrowser, engine, info }] = await Promise.all([this.start(browser, opts, mark), this.services.blockLists.warm()]);
    const memory = new ProcessMemoryWatch(() => mark.find(), this.options.pageMemoryLimitMb ?? DEFAULT_PAGE_MEMORY_LIMIT_MB);
    return new PlaywrightHandle(playwrightBrowser, engine, info, this.services, memory, this.preparedContexts(playwrightBrowser, engine, opts));
  }

  /**
   * Chromium's contexts only: a prepared page must take the init scripts its capture adds to the context
   * later, which Chromium applies to a page it already has. Behind the egress guard only with its pending
   * credentials: a prepared context without them could never serve a guarded capture.
   */
  private preparedContexts(browser: Browser, engine: Engine, opts: LaunchOptions): PreparedContexts | null {
    if (this.options.prepareContexts === false || engine.name !== 'chromium') return null;
    if (opts.egressProxy !== undefined && !opts.prepareEgress) return null;
    return new PreparedContexts(browser, engine, opts.prepareEgress ?? null);
  }

  private async start(browser: BrowserName, opts: LaunchOptions, mark: BrowserProcessMark): Promise<{ playwrightBrowser: Browser; engine: Engine; info: string }> {
    switch (browser) {
      case 'chrome': {
        const playwrightBrowser = await launchChromium(opts.executablePath ?? this.options.chromiumPath ?? DEFAULT_CHROMIUM, opts.egressProxy ?? null, mark);
        const engine: Engine = { browser, name: 'chromium', braveEmulation: false, launchedDark: false };
        return { playwrightBrowser, engine, info: `chromium ${playwrightBrowser.version()}` };
      }
      case 'brave': {
        // A real Brave binary brings its own shields and identity; without one, Chromium emulates them.
        const real = opts.executablePath !== undefined;
        const playwrightBrowser = await launchChromium(opts.executablePath ?? this.options.chromiumPath ?? DEFAULT_CHROMIUM, opts.egressProxy ?? null, mark);
        const engine: Engine = { browser, name: 'chromium', braveEmulation: !real, launchedDark: false };
        const info = real ? `brave (chromium ${playwrightBrowser.version()}, ${opts.executablePath})` : `chromium ${playwrightBrowser.version()} (brave emulation)`;
        return { playwrightBrowser, engine, info };
      }
      case 'firefox': {
        const dark = opts.dark === true;
        const playwrightBrowser = await launchFirefox(opts.executablePath ?? this.options.firefoxPath ?? DEFAULT_FIREFOX, dark, opts.egressProxy ?? null, mark);
        const engine: Engine = { browser, name: 'firefox', braveEmulation: false, launchedDark: dark };
        return { playwrightBrowser, engine, info: `firefox ${playwrightBrowser.version()} (webdriver bidi${dark ? ', dark' : ''})` };
      }
    }
  }
}
