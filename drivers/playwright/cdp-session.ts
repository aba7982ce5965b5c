import type { CDPSession, Page } from 'playwright-core';
import type { CdpSend } from '../shared/cdp-screenshots.js';

const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * The page's own CDP session (Chromium only), opened once and left attached until the page closes.
 * It must stay attached: Chromium drops a session's emulation overrides (the Brave client hints, the
 * touch emulation restored after a full-page shot) when that session detaches.
 */
export function cdpSessionFor(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  return session;
}

/** The page's CDP session as the shared CDP screenshot code sends on it (drivers/shared/cdp-screenshots.ts). */
export async function cdpSendFor(page: Page): Promise<CdpSend> {
  const session = await cdpSessionFor(page);
  // The shared code names its methods as strings; Playwright's typed send wants its own method union.
  return (method, params) => session.send(method as 'Page.captureScreenshot', params);
}
