/**
 * The baseline of the speed benchmark: a plain Playwright loop in the bench's own process, on the same
 * browser binaries and launch settings as shotfarm's Playwright driver (drivers/playwright), doing only
 * what a capture must: per capture a fresh context (as the service does, so no state leaks between
 * captures) → page → goto → PNG → close. Its own laps are the phases the report shows for raw rows.
 */
import { performance } from 'node:perf_hooks';
import { chromium, firefox, type Browser } from 'playwright-core';
import { dieWithParent } from '../../drivers/playwright/die-with-parent.js';
import { FIREFOX_PREFS } from '../../drivers/playwright/launch-flags.js';
import { CHROMIUM_FLAGS } from '../../drivers/shared/chromium-flags.js';
import { CHROMIUM_PATH, FIREFOX_PATH, HEIGHT, LAUNCH_TIMEOUT_MS, WIDTH, type BrowserKind } from './bench-settings.js';
import type { CaptureFn } from './measure.js';
import { childrenOf, readAllStats } from './proc-tree.js';

/** A launched browser and the bench's child processes that are its own (the roots of its process tree). */
export interface RawBrowser { browser: Browser; pids: number[] }

/**
 * Playwright's own Ctrl-C handling closes its browsers and then EXITS the process with 130, before the
 * bench has stopped its services, dropped its database and removed its folders. The bench handles the
 * signals itself (and closes these browsers in its cleanup), so Playwright is told to leave them alone.
 * This changes nothing in how the browser runs.
 */
const NO_SIGNAL_HANDLING = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } as const;

/** Launches a browser exactly as drivers/playwright/playwright-driver.ts does (without dark mode or Brave). */
export function launchBrowser(kind: BrowserKind): Promise<Browser> {
  if (kind === 'chromium') return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, timeout: LAUNCH_TIMEOUT_MS, ...NO_SIGNAL_HANDLING });
  return firefox.launch({
    ...NO_SIGNAL_HANDLING,
    channel: 'moz-firefox', // stock Firefox over WebDriver BiDi, as the driver does
    // The driver's wrapper that stops Firefox when its node process dies: part of what a launch costs.
    executablePath: dieWithParent(FIREFOX_PATH),
    firefoxUserPrefs: FIREFOX_PREFS,
    timeout: LAUNCH_TIMEOUT_MS,
  });
}

/**
 * Launches a browser and tells which new children of this process it started. Launches must not overlap
 * (nor with service starts): the new children are told apart by comparing before and after.
 */
export async function launchRawBrowser(kind: BrowserKind): Promise<RawBrowser> {
  const before = new Set(childrenOf(readAllStats(), process.pid));
  const browser = await launchBrowser(kind);
  const pids = childrenOf(readAllStats(), process.pid).filter((pid) => !before.has(pid));
  return { browser, pids };
}

/** One capture on a warm browser: new context → new page → goto → PNG → close, each phase timed. */
export async function rawCapture(browser: Browser, url: string, fullPage: boolean): Promise<{ ms: number; timings: Record<string, number> }> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  let lap = started;
  const mark = (phase: string): void => {
    const now = performance.now();
    timings[phase] = now - lap;
    lap = now;
  };
  const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } });
  try {
    const page = await context.newPage();
    mark('context_page');
    await page.goto(url);
    mark('load');
    const png = await page.screenshot({ type: 'png', fullPage });
    if (png.byteLength === 0) throw new Error(`${url}: empty screenshot`);
    mark('shot');
  } finally {
    await context.close();
    mark('close');
  }
  return { ms: performance.now() - started, timings };
}

/** Every worker shares one warm browser (contexts are the unit of isolation): issue 8's raw loop. */
export const pooledCapture = (raw: RawBrowser): CaptureFn => (url, size) => rawCapture(raw.browser, url, size === 'page');

/** Worker i uses browser i: one warm browser per slot, the other side of the pooled-vs-per-slot comparison. */
export const perSlotCapture = (raws: RawBrowser[]): CaptureFn => (url, size, worker) => {
  const raw = raws[worker];
  if (!raw) throw new Error(`no browser for worker ${worker} (${raws.length} launched)`);
  return rawCapture(raw.browser, url, size === 'page');
};

/** Closes browsers, whatever state they are in (a crashed one rejects: ignored, its processes are gone). */
export async function closeRawBrowsers(raws: RawBrowser[]): Promise<void> {
  await Promise.all(raws.map((raw) => raw.browser.close().catch(() => undefined)));
}
