import { Builder, type WebDriver } from 'selenium-webdriver';
import { withTimeout } from '../shared/with-timeout.js';

/**
 * How long the grid may take to start a session: a cold Chromium plus chromedriver take about 2 s
 * here; a grid whose slots are all busy queues the request, and after 60 s the job is better retried.
 */
const SESSION_START_TIMEOUT_MS = 60_000;

/**
 * A new WebDriver session on the grid, or an error within the time limit. A session the grid starts
 * after the limit is quit as soon as it arrives, so no browser is left running for nobody.
 */
export async function openSession(gridUrl: string, capabilities: Record<string, unknown>): Promise<WebDriver> {
  const building = new Builder().usingServer(gridUrl).withCapabilities(capabilities).build() as unknown as Promise<WebDriver>;
  try {
    return await withTimeout(building, SESSION_START_TIMEOUT_MS, `the grid did not start a session within ${SESSION_START_TIMEOUT_MS} ms`);
  } catch (error) {
    building
      .then(
        (late) => late.quit(),
        () => undefined,
      )
      .catch(() => undefined);
    throw error;
  }
}

/** A session that does not end within 10 s is left to the grid's own session timeout. */
const QUIT_TIMEOUT_MS = 10_000;

const quitting = new WeakMap<WebDriver, Promise<void>>();

/**
 * Ends a session, once: the abort and the capture's `finally` both close it, and a second quit of a
 * session that is ending would wait for the full time limit instead of the first quit.
 */
export function closeSession(driver: WebDriver): Promise<void> {
  let quit = quitting.get(driver);
  if (!quit) {
    quit = withTimeout(driver.quit(), QUIT_TIMEOUT_MS, 'the session did not end in time').catch(() => undefined);
    quitting.set(driver, quit);
  }
  return quit;
}
