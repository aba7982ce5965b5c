import { readFile } from 'node:fs/promises';
import { PlaywrightBlocker } from '@ghostery/adblocker-playwright';
import type { Page } from 'playwright-core';

/**
 * Ad and tracker blocking with Ghostery's engine and the filter list kept in the repository.
 * The engine is parsed once per process and list (parsing is the expensive part) and shared by every
 * page of every driver instance.
 * Blocking runs through page.route, so it works on Chromium (CDP) and Firefox (BiDi) alike:
 * network filters abort requests before they are sent; cosmetic filters hide their empty containers.
 */
export class AdBlocker {
  /** The parsed engines of this process, by filter list path. */
  private static readonly engines = new Map<string, Promise<PlaywrightBlocker>>();

  constructor(private readonly filterListPath: string) {}

  private load(): Promise<PlaywrightBlocker> {
    let engine = AdBlocker.engines.get(this.filterListPath);
    if (!engine) {
      engine = readFile(this.filterListPath, 'utf8').then((list) => PlaywrightBlocker.parse(list, { loadNetworkFilters: true, loadCosmeticFilters: true, enableCompression: false }));
      // A list that could not be read is not cached: the next capture tries again.
      engine.catch(() => AdBlocker.engines.delete(this.filterListPath));
      AdBlocker.engines.set(this.filterListPath, engine);
    }
    return engine;
  }

  /** Starts blocking in `page`; call before the first navigation. */
  async enable(page: Page): Promise<void> {
    const blocker = await this.load();
    // The wrapper is typed against the `playwright` package, which re-exports playwright-core's Page.
    await blocker.enableBlockingInPage(page as Parameters<PlaywrightBlocker['enableBlockingInPage']>[0]);
  }
}
