import type { WebDriver, WebElement } from 'selenium-webdriver';
import { Select } from 'selenium-webdriver/lib/select.js';
import { scrollPage } from '../page-scripts/scroll-page.js';
import type { Deadline } from '../shared/deadline.js';
import type { StepActions } from '../shared/run-steps.js';
import type { CdpSession } from './cdp-session.js';
import { visibleElement } from './find-element.js';
import { inPage } from './in-page.js';
import { webDriverKeys } from './key-names.js';
import { navigate } from './open-page.js';
import { waitForLoad } from './wait-for-load.js';

/**
 * The step commands in a WebDriver session (drivers/shared/run-steps.ts runs the steps): each acts on
 * the first matching element once it is visible, as Playwright's locators do.
 */
export class SeleniumSteps implements StepActions {
  constructor(
    private readonly driver: WebDriver,
    private readonly cdp: CdpSession,
  ) {}

  private target(selector: string, timeout: number): Promise<WebElement> {
    return visibleElement(this.driver, selector, timeout);
  }

  async click(selector: string, timeout: number): Promise<void> {
    await (await this.target(selector, timeout)).click();
  }

  async hover(selector: string, timeout: number): Promise<void> {
    await this.driver
      .actions()
      .move({ origin: await this.target(selector, timeout) })
      .perform();
  }

  async type(selector: string, text: string, timeout: number): Promise<void> {
    // sendKeys sends real key events, so autocompletes and key listeners react as to a person.
    await (await this.target(selector, timeout)).sendKeys(text);
  }

  async select(selector: string, value: string, timeout: number): Promise<void> {
    await new Select(await this.target(selector, timeout)).selectByValue(value);
  }

  async press(selector: string | undefined, combination: string, timeout: number): Promise<void> {
    const keys = webDriverKeys(combination);
    if (selector) {
      const element = await this.target(selector, timeout);
      await this.driver.executeScript('arguments[0].focus();', element);
    }
    // Modifiers go down first and come up last, as a person presses a combination.
    let actions = this.driver.actions();
    for (const key of keys) actions = actions.keyDown(key);
    for (const key of [...keys].reverse()) actions = actions.keyUp(key);
    await actions.perform();
  }

  async waitFor(selector: string, timeout: number): Promise<void> {
    await this.target(selector, timeout);
  }

  async scrollIntoView(selector: string, timeout: number): Promise<void> {
    await this.driver.executeScript("arguments[0].scrollIntoView({ block: 'center', inline: 'nearest' });", await this.target(selector, timeout));
  }

  async scrollPage(value: string): Promise<void> {
    await inPage(this.driver, scrollPage, value);
  }

  async navigate(url: string, timeout: number, deadline: Deadline): Promise<void> {
    await navigate(this.cdp, url, null, deadline);
    if (!(await waitForLoad(this.driver, deadline, timeout))) throw new Error(`${url} did not finish loading within ${timeout} ms`);
  }

  async settle(ms: number, deadline: Deadline): Promise<void> {
    await waitForLoad(this.driver, deadline, ms);
  }
}
