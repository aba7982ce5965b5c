import type { WebDriver } from 'selenium-webdriver';
import type { Deadline } from '../shared/deadline.js';

/**
 * document.readyState is asked this often while a page loads: 100 ms adds at most a tenth of a second
 * to a capture and keeps the WebDriver traffic small.
 */
const POLL_MS = 100;

/**
 * Waits until the current document has fired `load` (readyState "complete"), or with `parsed` only until
 * it was parsed (readyState "interactive": DOMContentLoaded), at most `ms` and never past the deadline. The sessions run with pageLoadStrategy "none", so this is the only load wait.
 * Resolves true when loaded; false when the time ran out. A navigation in flight makes the script fail
 * now and then (the document went away): that is not loaded yet, so it asks again.
 */
export async function waitForLoad(driver: WebDriver, deadline: Deadline, ms = Number.POSITIVE_INFINITY, parsed = false): Promise<boolean> {
  const until = Date.now() + deadline.timeout(ms);
  for (;;) {
    deadline.check();
    const state = await deadline.race(driver.executeScript<string>('return document.readyState;'), 'reading the load state', until - Date.now()).catch(() => '');
    if (state === 'complete' || (parsed && state === 'interactive')) return true;
    if (Date.now() + POLL_MS >= until) return false;
    await deadline.sleep(POLL_MS);
  }
}
