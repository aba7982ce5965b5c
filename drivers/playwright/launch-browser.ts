import { chromium, firefox, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../shared/chromium-flags.js';
import { dieWithParent } from './die-with-parent.js';
import { FIREFOX_DARK_PREFS, FIREFOX_PREFS } from './launch-flags.js';

/** A cold browser start takes 1–3 s here; 30 s means it is not going to start. */
const LAUNCH_TIMEOUT_MS = 30_000;
/**
 * Signals are the process's business, not Playwright's: by default Playwright closes every browser on
 * SIGINT/SIGTERM/SIGHUP (and exits), which killed the captures a stopping agent was draining. The agent
 * closes its browsers itself once drained; if the process dies instead, Chromium exits with its pipe and
 * Firefox with its watchdog (die-with-parent.ts).
 */
const LEAVE_SIGNALS_TO_US = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } as const;

/**
 * The one way a Chromium is launched: the driver's browsers, the speed benchmark's raw loop and the tests
 * that drive a page directly all run the same binary with the same flags.
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS, timeout: LAUNCH_TIMEOUT_MS, ...LEAVE_SIGNALS_TO_US });
}

/** The one way a Firefox is launched: stock Firefox ESR over WebDriver BiDi, dark mode being a launch pref. */
export function launchFirefox(executablePath: string, dark = false): Promise<Browser> {
  return firefox.launch({
    channel: 'moz-firefox', // stock Firefox over WebDriver BiDi (playwright-core 1.64.1; 1.65 breaks ESR)
    executablePath: dieWithParent(executablePath),
    firefoxUserPrefs: { ...FIREFOX_PREFS, ...(dark ? FIREFOX_DARK_PREFS : {}) },
    timeout: LAUNCH_TIMEOUT_MS,
    ...LEAVE_SIGNALS_TO_US,
  });
}
