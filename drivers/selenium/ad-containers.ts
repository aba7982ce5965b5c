import type { FiltersEngine } from '@ghostery/adblocker';
import type { WebDriver } from 'selenium-webdriver';
import { domFeatures, injectStyle } from '../shared/dom-features.js';
import { cosmeticStyles } from './ad-blocker.js';
import { inPage } from './in-page.js';

/** The <style> element holding the cosmetic filters' CSS, replaced on every pass. */
const STYLE_ID = 'shotfarm-ad-containers';

/** Applies the cosmetic filters that match the page as it is now (its URL and the names in its DOM). */
export async function hideAdContainers(driver: WebDriver, engine: FiltersEngine): Promise<void> {
  const url = await driver.getCurrentUrl();
  if (!/^https?:\/\//i.test(url)) return;
  const css = cosmeticStyles(engine, url, await inPage(driver, domFeatures));
  if (css) await inPage(driver, injectStyle, STYLE_ID, css);
}
