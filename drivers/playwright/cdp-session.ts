import type { CDPSession, Page } from 'playwright-core';

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
