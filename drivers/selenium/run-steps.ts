import { By, type WebDriver, type WebElement } from 'selenium-webdriver';
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

  /**
   * Chooses the first option whose value is `value`, by clicking it as a person would. Not selenium's
   * Select: it checks the element's tag in a promise nobody awaits, so a step naming anything but a
   * <select> became an unhandled rejection that ended the whole agent process.
   */
  async select(selector: string, value: string, timeout: number): Promise<void> {
    const element = await this.target(selector, timeout);
    if ((await element.getTagName()).toLowerCase() !== 'select') throw new Error('Element is not a <select> element');
    const [option] = await element.findElements(By.xpath(`.//option[@value = ${xpathLiteral(value)}]`));
    if (!option) throw new Error(`Cannot locate option with value: ${value}`);
    if (!(await option.isSelected())) await option.click();
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

/** `value` as an XPath string literal: XPath 1.0 has no escape, so a value with both quote kinds is a concat(). */
function xpathLiteral(value: string): string {
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  return `concat(${value
    .split("'")
    .map((part) => `'${part}'`)
    .join(`, "'", `)})`;
}
