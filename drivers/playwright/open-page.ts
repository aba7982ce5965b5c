import { errors, type Page } from 'playwright-core';
import type { CaptureSource, CaptureSpec } from '../../core/capture-spec.js';
import { navigationUrl, sourceDocument, SOURCE_DOCUMENT_HEADERS, SOURCE_DOCUMENT_URL } from '../source/source-document.js';
import type { Deadline } from '../shared/deadline.js';
import { errorText } from '../shared/error-text.js';
import type { Engine } from './engine.js';

/** about:blank commits at once; this only bounds a browser that is itself stuck. */
const CANCEL_NAVIGATION_MS = 2_000;

/**
 * Makes the first navigation a POST of the spec's url-encoded body. Playwright's goto can only GET,
 * so the navigation request is intercepted once and continued with the method, body and content type
 * changed. Registered after the ad blocker, so it runs first (Playwright runs the newest route first);
 * `continue` ends the chain, which is safe because blockers never block the main document.
 */
async function postFirstNavigation(page: Page, url: string, body: string): Promise<void> {
  let pending = true;
  await page.route(
    (candidate) => pending && candidate.href === url,
    async (route) => {
      const request = route.request();
      if (!pending || !request.isNavigationRequest()) return route.fallback();
      pending = false;
      return route.continue({
        method: 'POST',
        postData: body,
        headers: { ...request.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      });
    },
  );
}

/**
 * Answers the navigation to the reserved source URL with the spec's source document under its sandbox
 * policy (drivers/source/source-document.ts). Any other request to the reserved host (a relative link of a
 * source without base_url) fails here: it has no server, and its name is not sent to a resolver.
 */
async function serveSource(page: Page, source: CaptureSource): Promise<void> {
  const document = sourceDocument(source);
  await page.route(
    (candidate) => candidate.origin === SOURCE_ORIGIN,
    async (route) => {
      const request = route.request();
      if (request.isNavigationRequest() && request.url().split('#')[0] === SOURCE_DOCUMENT_URL) return route.fulfill({ status: 200, headers: SOURCE_DOCUMENT_HEADERS, body: document });
      return route.abort('blockedbyclient');
    },
  );
}
const SOURCE_ORIGIN = new URL(SOURCE_DOCUMENT_URL).origin;

/**
 * Opens the spec's URL (or its source, served by serveSource). Never throws for the page's sake: an unreachable page or a page that never
 * finishes loading is reported in `warnings` and the capture goes on with what the browser shows.
 * Waiting is split in two so the deadline can cut the second part: `commit` (the response started),
 * then `load` (or `domcontentloaded` when the spec's wait_until asks for it) until the deadline.
 */
export async function openPage(page: Page, spec: CaptureSpec, engine: Engine, deadline: Deadline, warnings: string[]): Promise<void> {
  const url = navigationUrl(spec);
  if (spec.source) await serveSource(page, spec.source);
  else if (spec.postData !== null) await postFirstNavigation(page, url, spec.postData);
  try {
    await page.goto(url, {
      waitUntil: 'commit',
      timeout: deadline.timeout(),
      // Chromium sends it and sets document.referrer; on Firefox a header does it (context-options.ts).
      ...(engine.name === 'chromium' && spec.referer ? { referer: spec.referer } : {}),
    });
  } catch (error) {
    deadline.check();
    warnings.push(`The page could not be reached: ${errorText(error)}.`);
    // A host that accepts and never answers leaves Chromium's navigation pending, and Chromium holds every
    // script and screenshot of the tab until it commits (the capture then timed out twice, 80 s, instead
    // of saying the host did not answer). Opening about:blank cancels it; Firefox needs nothing.
    if (engine.name === 'chromium' && error instanceof errors.TimeoutError) await page.goto('about:blank', { timeout: CANCEL_NAVIGATION_MS }).catch(() => undefined);
    return;
  }
  try {
    await page.waitForLoadState(spec.waitUntil === 'domcontentloaded' ? 'domcontentloaded' : 'load', { timeout: deadline.timeout() });
  } catch (error) {
    deadline.check();
    // The same sentence as the Selenium driver's (drivers/selenium/open-page.ts) when the wait timed out.
    warnings.push(`The page had not finished loading when max_wait passed; captured what was there (${error instanceof errors.TimeoutError ? 'the load event had not fired' : errorText(error)}).`);
  }
}
