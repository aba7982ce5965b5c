import { chromium, errors, firefox, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../shared/chromium-flags.js';
import type { BrowserProcessMark } from '../shared/process-memory-watch.js';
import { withProfilePreferences } from './chromium-profile.js';
import { dieWithParent } from './die-with-parent.js';
import { FIREFOX_DARK_PREFS, FIREFOX_PREFS, firefoxProxyPrefs } from './launch-flags.js';

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
 * that drive a page directly all run the same binary with the same flags and profile preferences.
 *
 * `egressProxy` (the egress guard, http://127.0.0.1:PORT, no credentials) is the proxy of the WHOLE browser:
 * every request no capture's context claims (a popup or a keepalive request outliving its context, the
 * browser's own traffic) goes there and gets 407, and nothing goes direct. Loopback is not bypassed
 * (`<-loopback>`). Each capture's context still sets its own proxy with its own credentials on top.
 * `mark` (an unknown switch, which Chromium ignores) finds the browser's process for the memory ceiling.
 */
export function launchChromium(executablePath: string, egressProxy: string | null = null, mark: BrowserProcessMark | null = null): Promise<Browser> {
  return chromium.launch({
    executablePath: withProfilePreferences(executablePath),
    args: [...CHROMIUM_FLAGS, ...(mark ? [mark.arg] : [])],
    ...(egressProxy ? { proxy: { server: egressProxy, bypass: '<-loopback>' } } : {}),
    timeout: LAUNCH_TIMEOUT_MS,
    ...LEAVE_SIGNALS_TO_US,
  });
}

/**
 * The one way a Firefox is launched: stock Firefox ESR over WebDriver BiDi, dark mode being a launch pref,
 * and `egressProxy` the proxy of the whole browser as for Chromium (firefoxProxyPrefs).
 */
export async function launchFirefox(executablePath: string, dark = false, egressProxy: string | null = null, mark: BrowserProcessMark | null = null): Promise<Browser> {
  try {
    return await launchFirefoxOnce(executablePath, dark, egressProxy, mark);
  } catch (error) {
    // Firefox ESR's remote agent sometimes never finishes the BiDi session it accepted (its log then says
    // "PromptListener.sys.mjs: browsingContext is undefined"): seen in 3 of the launches of two whole-suite
    // runs, never when the same tests ran alone. Playwright has killed that process; a second start is a
    // fresh one. Only a timeout is retried: a missing binary or library fails at once, as before.
    if (!(error instanceof errors.TimeoutError)) throw error;
    return launchFirefoxOnce(executablePath, dark, egressProxy, mark);
  }
}

function launchFirefoxOnce(executablePath: string, dark: boolean, egressProxy: string | null, mark: BrowserProcessMark | null): Promise<Browser> {
  return firefox.launch({
    channel: 'moz-firefox', // stock Firefox over WebDriver BiDi (playwright-core 1.64.1; 1.65 breaks ESR)
    executablePath: dieWithParent(executablePath),
    args: mark ? [mark.arg] : [], // for the launcher script only, which drops it
    firefoxUserPrefs: { ...FIREFOX_PREFS, ...(dark ? FIREFOX_DARK_PREFS : {}), ...(egressProxy ? firefoxProxyPrefs(egressProxy) : {}) },
    timeout: LAUNCH_TIMEOUT_MS,
    ...LEAVE_SIGNALS_TO_US,
  });
}
