import { FiltersEngine, Request } from '@ghostery/adblocker';
import type { WebDriver } from 'selenium-webdriver';
import { cosmeticStyles } from '../shared/ad-filter-matches.js';
import { domFeatures, injectStyle } from '../shared/dom-features.js';
import { ParsedFilterLists } from '../shared/filter-list-path.js';
import { inPage } from './in-page.js';

/**
 * The filter engine for hide_ads, from the filter lists of SHOTFARM_AD_FILTER_LISTS (the ones the
 * Playwright driver uses). Parsed once per process and set of lists: parsing is the expensive part.
 */
export class AdBlocker {
  /** The parsed engines of this process. */
  private static readonly engines = new ParsedFilterLists((lists) => FiltersEngine.parse(lists, { loadNetworkFilters: true, loadCosmeticFilters: true, enableCompression: false }));

  constructor(private readonly filterListFiles: readonly string[]) {}

  load(): Promise<FiltersEngine> {
    return AdBlocker.engines.of(this.filterListFiles);
  }
}

/**
 * True when a request must not be sent. `resourceType` is CDP's (Document, Script, Image…); the engine
 * reads the lower-case names Puppeteer uses, which are the same words, except that a document loading in
 * an iframe (an ad server's frame) is a `sub_frame`. `mainFrame`: the request is the top document's.
 */
export function isBlocked(engine: FiltersEngine, url: string, resourceType: string, pageUrl: string, mainFrame: boolean): boolean {
  let type = resourceType.toLowerCase();
  if (type === 'document') {
    // The page itself is never blocked: the capture is of that page.
    if (mainFrame) return false;
    type = 'sub_frame';
  }
  const request = Request.fromRawDetails({ url, sourceUrl: pageUrl, type: type as Parameters<typeof Request.fromRawDetails>[0]['type'] });
  return engine.match(request).match;
}

/** The <style> element holding the cosmetic filters' CSS, replaced on every pass. */
const AD_CONTAINERS_STYLE_ID = 'shotfarm-ad-containers';

/**
 * Applies the cosmetic filters that match the page as it is now (its URL and the names in its DOM). The
 * Playwright driver has no counterpart: Ghostery's Playwright wrapper injects these styles itself.
 */
export async function hideAdContainers(driver: WebDriver, engine: FiltersEngine): Promise<void> {
  const url = await driver.getCurrentUrl();
  if (!/^https?:\/\//i.test(url)) return;
  const css = cosmeticStyles(engine, url, await inPage(driver, domFeatures));
  if (css) await inPage(driver, injectStyle, AD_CONTAINERS_STYLE_ID, css);
}
