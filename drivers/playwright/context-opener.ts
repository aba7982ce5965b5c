import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

/** A capture's fresh context with its blank page. */
export interface OpenedContext { context: BrowserContext; page: Page }

/**
 * Opens each capture's context and page, and keeps one opened ahead for the next capture: about half of
 * a light capture on Chromium is opening them (a context, then a page whose renderer process starts: ~125 ms
 * of 250 here), and opened ahead that time overlaps the capture before. Nothing is shared between captures:
 * a context opened ahead has never loaded anything, and it serves one capture only, like any other.
 *
 * A context is opened ahead only after two captures in a row asked for the same options (viewport, user
 * agent, headers…, everything but the proxy's credentials, which are set per capture): then a third is
 * likely too. A stream of differing requests does not pay for contexts it would throw away. The context
 * opened ahead is closed when the next capture wants other options, or with the browser.
 */
export class ContextOpener {
  private ahead: { key: string; opened: Promise<OpenedContext | null> } | null = null;
  private lastKey: string | null = null;
  private closed = false;

  constructor(private readonly browser: Browser) {}

  /** A context and its page opened with `options`: the one opened ahead when its options are the same. */
  async open(options: BrowserContextOptions): Promise<OpenedContext> {
    const key = JSON.stringify(options);
    const ahead = this.ahead;
    this.ahead = null;
    const repeated = key === this.lastKey;
    this.lastKey = key;
    if (repeated && !this.closed) this.ahead = { key, opened: this.openNew(options).catch(() => null) };
    if (ahead?.key === key) {
      // Opened ahead and failed (a browser that crashed meanwhile): a new attempt says why it fails.
      const opened = await ahead.opened;
      if (opened) return opened;
    } else if (ahead) {
      void ahead.opened.then((opened) => opened?.context.close()).catch(() => undefined);
    }
    return this.openNew(options);
  }

  /** Closes the context opened ahead, and opens no more (the browser is closing). */
  async close(): Promise<void> {
    this.closed = true;
    const ahead = this.ahead;
    this.ahead = null;
    await ahead?.opened.then((opened) => opened?.context.close()).catch(() => undefined);
  }

  private async openNew(options: BrowserContextOptions): Promise<OpenedContext> {
    const context = await this.browser.newContext(options);
    try {
      return { context, page: await context.newPage() };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }
}
