/**
 * The baseline of the speed benchmark: a plain Playwright loop in the bench's own process, on the same
 * browser binaries and launch settings as shotfarm's Playwright driver (drivers/playwright), doing only
 * what a capture must: per capture a fresh context (as the service does, so no state leaks between
 * captures) → page → goto → PNG → close. Its own laps are the phases the report shows for raw rows.
 */
import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from 'playwright-core';
import { launchChromium, launchFirefox } from '../../drivers/playwright/launch-browser.js';
import { CHROMIUM_PATH, FIREFOX_PATH, HEIGHT, WIDTH, type BrowserKind } from './bench-settings.js';
import type { CaptureFn } from './measure.js';
import { childrenOf, readAllStats } from './proc-tree.js';

/** A launched browser and the bench's child processes that are its own (the roots of its process tree). */
export interface RawBrowser {
  browser: Browser;
  pids: number[];
}

/**
 * Launches a browser exactly as drivers/playwright/playwright-driver.ts does (without dark mode or Brave):
 * the same binary, flags and watchdog, and Playwright leaves the signals alone (its Ctrl-C handling would
 * close the browsers and exit before the bench has stopped its services and removed its folders).
 */
export function launchBrowser(kind: BrowserKind): Promise<Browser> {
  return kind === 'chromium' ? launchChromium(CHROMIUM_PATH) : launchFirefox(FIREFOX_PATH);
}

/**
 * The loop a user writes first (issue 30's naive loop): the same binary with Playwright's own launch
 * defaults, none of shotfarm's flags or profile preferences. Signals are left alone as for the others.
 */
export function launchNaiveChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}

/**
 * Launches a browser (`launch`: shotfarm's way by default) and tells which new children of this process it
 * started. Launches must not overlap (nor with service starts): the new children are told apart by comparing
 * before and after.
 */
export async function launchRawBrowser(kind: BrowserKind, launch: (kind: BrowserKind) => Promise<Browser> = launchBrowser): Promise<RawBrowser> {
  const before = new Set(childrenOf(readAllStats(), process.pid));
  const browser = await launch(kind);
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
export const pooledCapture =
  (raw: RawBrowser): CaptureFn =>
  (url, size) =>
    rawCapture(raw.browser, url, size === 'page');

/** Worker i uses browser i: one warm browser per slot, the other side of the pooled-vs-per-slot comparison. */
export const perSlotCapture =
  (raws: RawBrowser[]): CaptureFn =>
  (url, size, worker) => {
    const raw = raws[worker];
    if (!raw) throw new Error(`no browser for worker ${worker} (${raws.length} launched)`);
    return rawCapture(raw.browser, url, size === 'page');
  };

/** Closes browsers, whatever state they are in (a crashed one rejects: ignored, its processes are gone). */
export async function closeRawBrowsers(raws: RawBrowser[]): Promise<void> {
  await Promise.all(raws.map((raw) => raw.browser.close().catch(() => undefined)));
}
