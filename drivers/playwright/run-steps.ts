import type { Page } from 'playwright-core';
import { scrollPage } from '../page-scripts/scroll-page.js';
import type { Deadline } from '../shared/deadline.js';
import type { StepActions } from '../shared/run-steps.js';

/** The step commands on a Playwright page (drivers/shared/run-steps.ts runs the steps). */
export class PlaywrightSteps implements StepActions {
  constructor(private readonly page: Page) {}

  private target(selector: string): ReturnType<Page['locator']> {
    return this.page.locator(selector).first();
  }

  click(selector: string, timeout: number): Promise<void> {
    return this.target(selector).click({ timeout });
  }

  hover(selector: string, timeout: number): Promise<void> {
    return this.target(selector).hover({ timeout });
  }

  type(selector: string, text: string, timeout: number): Promise<void> {
    // pressSequentially sends real key events, so autocompletes and key listeners react as to a person.
    return this.target(selector).pressSequentially(text, { timeout });
  }

  async select(selector: string, value: string, timeout: number): Promise<void> {
    await this.target(selector).selectOption(value, { timeout });
  }

  press(selector: string | undefined, keys: string, timeout: number): Promise<void> {
    if (selector) return this.target(selector).press(keys, { timeout });
    return this.page.keyboard.press(keys);
  }

  waitFor(selector: string, timeout: number): Promise<void> {
    return this.target(selector).waitFor({ state: 'visible', timeout });
  }

  scrollIntoView(selector: string, timeout: number): Promise<void> {
    return this.target(selector).scrollIntoViewIfNeeded({ timeout });
  }

  async scrollPage(value: string): Promise<void> {
    await this.page.evaluate(scrollPage, value);
  }

  async navigate(url: string, timeout: number): Promise<void> {
    await this.page.goto(url, { waitUntil: 'load', timeout });
  }

  async settle(ms: number, deadline: Deadline): Promise<void> {
    await this.page.waitForLoadState('load', { timeout: deadline.timeout(ms) }).catch(() => undefined);
  }
}
