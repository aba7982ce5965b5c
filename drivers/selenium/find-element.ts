import { By, until, type WebDriver, type WebElement } from 'selenium-webdriver';

/**
 * The first element matching the CSS selector once it is visible, waiting at most `timeoutMs`: the
 * Selenium counterpart of Playwright's `locator(selector).first().waitFor({ state: 'visible' })`.
 */
export async function visibleElement(driver: WebDriver, selector: string, timeoutMs: number): Promise<WebElement> {
  const started = Date.now();
  const element = await driver.wait(until.elementLocated(By.css(selector)), timeoutMs, `${selector} was not found within ${timeoutMs} ms`);
  const left = Math.max(1, timeoutMs - (Date.now() - started));
  await driver.wait(until.elementIsVisible(element), left, `${selector} was not visible within ${timeoutMs} ms`);
  return element;
}
