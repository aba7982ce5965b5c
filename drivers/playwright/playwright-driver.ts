import { chromium, firefox, type Browser } from 'playwright-core';
import type { BrowserName } from '../../core/capture-spec.js';
import type { BrowserDriver, BrowserHandle, LaunchOptions, PngEncoding } from '../../core/contracts/browser-driver.js';
import { CHROMIUM_FLAGS } from '../shared/chromium-flags.js';
import { defaultFilterListPath } from '../shared/filter-list-path.js';
import { VideoEncoder } from '../video/video-encoder.js';
import { AdBlocker } from './ad-blocker.js';
import type { CaptureServices } from './capture-job.js';
import type { Engine } from './engine.js';
import { dieWithParent } from './die-with-parent.js';
import { FIREFOX_DARK_PREFS, FIREFOX_PREFS } from './launch-flags.js';
import { PlaywrightHandle } from './playwright-handle.js';

/** Settings of the Playwright driver, passed in by the composition root (nothing here reads the environment). */
export interface PlaywrightDriverOptions {
  /** Chromium binary for chrome and emulated brave; Debian's by default */
  chromiumPath?: string;
  /** Firefox binary, driven over WebDriver BiDi; Debian's ESR by default */
  firefoxPath?: string;
  /** ffmpeg binary for videos (FFMPEG_PATH); `ffmpeg` on PATH by default */
  ffmpegPath?: string;
  /** EasyList-syntax filter list for ad blocking; the repository's list by default */
  filterListPath?: string;
  /** the job deadline when a spec's maxWait is 0, in seconds */
  defaultMaxWaitSeconds?: number;
  /** Chromium's PNG compression effort (core/contracts/browser-driver.ts); fast by default */
  pngEncoding?: PngEncoding;
}

const DEFAULT_CHROMIUM = '/usr/lib/chromium/chromium';
const DEFAULT_FIREFOX = '/usr/bin/firefox-esr';
/**
 * The deadline when a request leaves max_wait at 0: 30 s is the API's documented target fallback, and
 * pages that have not loaded by then rarely do.
 */
const DEFAULT_MAX_WAIT_SECONDS = 30;
/** A cold browser start takes 1–3 s here; 30 s means it is not going to start. */
const LAUNCH_TIMEOUT_MS = 30_000;
/**
 * Signals are the process's business, not Playwright's: by default Playwright closes every browser on
 * SIGINT/SIGTERM/SIGHUP, which killed the captures a stopping agent was draining. The agent closes its
 * browsers itself once drained; if the process dies instead, Chromium exits with its pipe and Firefox
 * with its watchdog (die-with-parent.ts).
 */
const LEAVE_SIGNALS_TO_US = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } as const;

/** Launches Playwright browsers: chrome (Chromium), firefox (Firefox ESR over BiDi), brave (binary or emulation). */
export class PlaywrightDriver implements BrowserDriver {
  readonly kind = 'playwright' as const;
  private readonly services: CaptureServices;

  constructor(private readonly options: PlaywrightDriverOptions = {}) {
    this.services = {
      adBlocker: new AdBlocker(options.filterListPath ?? defaultFilterListPath()),
      videoEncoder: new VideoEncoder({ ffmpegPath: options.ffmpegPath ?? 'ffmpeg' }),
      defaultMaxWaitMs: (options.defaultMaxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000,
      pngEncoding: options.pngEncoding ?? 'fast',
    };
  }

  browsers(): BrowserName[] {
    return ['chrome', 'firefox', 'brave'];
  }

  async launch(browser: BrowserName, opts: LaunchOptions): Promise<BrowserHandle> {
    const { playwrightBrowser, engine, info } = await this.start(browser, opts);
    return new PlaywrightHandle(playwrightBrowser, engine, info, this.services);
  }

  private async start(browser: BrowserName, opts: LaunchOptions): Promise<{ playwrightBrowser: Browser; engine: Engine; info: string }> {
    switch (browser) {
      case 'chrome': {
        const playwrightBrowser = await this.launchChromium(opts.executablePath ?? this.options.chromiumPath ?? DEFAULT_CHROMIUM);
        const engine: Engine = { browser, name: 'chromium', braveEmulation: false, launchedDark: false };
        return { playwrightBrowser, engine, info: `chromium ${playwrightBrowser.version()}` };
      }
      case 'brave': {
        // A real Brave binary brings its own shields and identity; without one, Chromium emulates them.
        const real = opts.executablePath !== undefined;
        const playwrightBrowser = await this.launchChromium(opts.executablePath ?? this.options.chromiumPath ?? DEFAULT_CHROMIUM);
        const engine: Engine = { browser, name: 'chromium', braveEmulation: !real, launchedDark: false };
        const info = real ? `brave (chromium ${playwrightBrowser.version()}, ${opts.executablePath})` : `chromium ${playwrightBrowser.version()} (brave emulation)`;
        return { playwrightBrowser, engine, info };
      }
      case 'firefox': {
        const dark = opts.dark === true;
        const playwrightBrowser = await firefox.launch({
          channel: 'moz-firefox', // stock Firefox over WebDriver BiDi (playwright-core 1.64.1; 1.65 breaks ESR)
          executablePath: dieWithParent(opts.executablePath ?? this.options.firefoxPath ?? DEFAULT_FIREFOX),
          firefoxUserPrefs: { ...FIREFOX_PREFS, ...(dark ? FIREFOX_DARK_PREFS : {}) },
          timeout: LAUNCH_TIMEOUT_MS,
          ...LEAVE_SIGNALS_TO_US,
        });
        const engine: Engine = { browser, name: 'firefox', braveEmulation: false, launchedDark: dark };
        return { playwrightBrowser, engine, info: `firefox ${playwrightBrowser.version()} (webdriver bidi${dark ? ', dark' : ''})` };
      }
    }
  }

  private launchChromium(executablePath: string): Promise<Browser> {
    return chromium.launch({ executablePath, args: CHROMIUM_FLAGS, timeout: LAUNCH_TIMEOUT_MS, ...LEAVE_SIGNALS_TO_US });
  }
}
