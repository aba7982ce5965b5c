import type { WebDriver } from 'selenium-webdriver';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Deadline } from '../shared/deadline.js';
import type { CdpSession } from './cdp-session.js';
import { errorText } from '../shared/error-text.js';
import { withTimeout } from '../shared/with-timeout.js';
import { navigationUrl } from '../source/source-document.js';
import { waitForLoad } from './wait-for-load.js';

/** How long Chromium's own error page may take to load: it is local, so a second is plenty. */
const ERROR_PAGE_SETTLE_MS = 1_000;
/** Stopping a navigation is local to the browser; this only bounds a browser that is itself stuck. */
const STOP_LOADING_MS = 2_000;

/**
 * Starts a navigation and resolves once the new document is committed, the analogue of Playwright's
 * `goto(url, { waitUntil: 'commit' })`. CDP Page.navigate rather than WebDriver's navigation because
 * it carries the referrer (so document.referrer is set, as by a link) and reports a failed navigation
 * as errorText instead of showing an error page silently.
 */
export async function navigate(cdp: CdpSession, url: string, referrer: string | null, deadline: Deadline): Promise<void> {
  // referrerPolicy unsafeUrl: the referrer is sent as given, even from https to http (the default
  // policy would drop it there), as Playwright's goto does.
  const params = { url, ...(referrer ? { referrer, referrerPolicy: 'unsafeUrl' } : {}) };
  const result = await deadline.race(cdp.send<{ errorText?: string }>('Page.navigate', params), 'the navigation');
  if (result.errorText) throw new Error(result.errorText);
}

/**
 * Opens the spec's URL. Never throws for the page's sake: an unreachable page or a page that never
 * finishes loading is reported in `warnings` and the capture goes on with what the browser shows.
 * The same sentences as drivers/playwright/open-page.ts.
 */
export async function openPage(driver: WebDriver, cdp: CdpSession, spec: CaptureSpec, deadline: Deadline, warnings: string[]): Promise<void> {
  try {
    await navigate(cdp, navigationUrl(spec), spec.referer, deadline);
  } catch (error) {
    deadline.check();
    warnings.push(`The page could not be reached: ${errorText(error)}.`);
    // A host that accepts and never answers leaves the navigation pending, and Chromium holds every
    // script and screenshot of the tab until it commits (the capture then timed out twice instead of
    // saying the host did not answer): stop it, as drivers/playwright/open-page.ts does.
    if (deadline.passed) await withTimeout(cdp.send('Page.stopLoading'), STOP_LOADING_MS, 'Page.stopLoading').catch(() => undefined);
    // Chromium now commits its error page; WebDriver commands sent while it does fail, so let it load.
    await waitForLoad(driver, deadline, ERROR_PAGE_SETTLE_MS);
    return;
  }
  if (!(await waitForLoad(driver, deadline, Number.POSITIVE_INFINITY, spec.waitUntil === 'domcontentloaded'))) {
    warnings.push('The page had not finished loading when max_wait passed; captured what was there (the load event had not fired).');
  }
}
