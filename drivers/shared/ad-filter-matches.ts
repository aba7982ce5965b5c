import { Request, type FiltersEngine } from '@ghostery/adblocker';
import { adoptStyleSheet } from '../page-scripts/adopt-style-sheet.js';
import { countStyledElements } from '../page-scripts/count-styled-elements.js';
import type { CapturePage } from './capture-adapter.js';
import { domFeatures } from './dom-features.js';
import { errorText } from './error-text.js';
import { withinOutputTime } from './output-timeout.js';

/** The warning when hide_ads found nothing to block or hide on the page, as the record shows it. */
export const NO_AD_FILTER_WARNING = 'hide_ads: no ad filter matched this page.';

/** What the page's DOM names, for the cosmetic filters that depend on it (dom-features.ts). */
export interface DomFeatures {
  classes: string[];
  ids: string[];
  hrefs: string[];
}

/**
 * The CSS that hides what the cosmetic filters name for a page at `pageUrl` whose DOM names `features`:
 * the generic rules, the page's host's rules and the rules keyed by its class names, ids and links.
 * Extended selectors and scriptlets are not asked for: the built-in list has none.
 */
export function cosmeticStyles(engine: FiltersEngine, pageUrl: string, features: DomFeatures): string {
  // The engine's own URL parsing gives the hostname and registrable domain the rules are keyed by.
  const { hostname, domain } = Request.fromRawDetails({ url: pageUrl });
  const { active, styles } = engine.getCosmeticsFilters({
    url: pageUrl,
    hostname,
    domain,
    ...features,
    getBaseRules: true,
    getInjectionRules: false,
    getExtendedRules: false,
    getRulesFromHostname: true,
    getRulesFromDOM: true,
  });
  return active ? styles : '';
}

/**
 * hide_ads' account of one capture's page: did any filter match it? A network filter matched when it
 * stopped (or redirected) one of the page's requests, which the driver's blocking reports with
 * requestBlocked(); a cosmetic filter matched when an element of the page is one it hides. When neither
 * happened by the first shot the record says so once, as hide_popups does for a page no consent rule
 * knew: the operator learns that the page's ads (if it has any) are not in the filter lists.
 */
export class AdFilterMatches {
  private blockedRequests = 0;
  private judged = false;

  constructor(
    readonly engine: FiltersEngine,
    /** hide_ads asked: the record says when nothing matched; brave's shields hide the containers without a word */
    private readonly report = true,
  ) {}

  /** One of the page's requests was stopped or redirected by a network filter. */
  requestBlocked(): void {
    this.blockedRequests += 1;
  }

  /**
   * Runs before every shot: hides the containers the cosmetic filters name for the page as it is now
   * (blocked ads leave them empty), as a constructed style sheet that a Content-Security-Policy does not
   * refuse; then judges once, at the first shot of a page that was reached.
   */
  async beforeShot(page: CapturePage, warnings: string[]): Promise<void> {
    // A page that was never reached shows the browser's own error page: there is nothing to match or hide.
    if (page.responseCode() === null) return;
    await withinOutputTime(this.hideContainers(page), 'hiding ad containers').catch((error: unknown) => warnings.push(`Ad containers could not be hidden: ${errorText(error)}.`));
    if (this.judged || !this.report) return;
    this.judged = true;
    if (this.blockedRequests > 0) return;
    const hidden = await withinOutputTime(this.hiddenElements(page), 'counting hidden ads').catch((error: unknown) => {
      warnings.push(`hide_ads: the page could not be checked for hidden ads (${errorText(error)}).`);
      return null;
    });
    if (hidden === 0) warnings.push(NO_AD_FILTER_WARNING);
  }

  private async hideContainers(page: CapturePage): Promise<void> {
    const url = await page.shownUrl();
    if (url === '') return;
    const css = cosmeticStyles(this.engine, url, await page.evaluate(domFeatures));
    if (css !== '') await page.evaluate(adoptStyleSheet, { css, hide: [] });
  }

  /** How many elements of the page the cosmetic filters hide now. */
  private async hiddenElements(page: CapturePage): Promise<number> {
    const url = await page.shownUrl();
    if (url === '') return 0;
    const css = cosmeticStyles(this.engine, url, await page.evaluate(domFeatures));
    return css === '' ? 0 : page.evaluate(countStyledElements, css);
  }
}
