import type { WebDriver } from 'selenium-webdriver';
import { Select } from 'selenium-webdriver/lib/select.js';
import type { Step } from '../../core/capture-spec.js';
import { scrollPage } from '../page-scripts/scroll-page.js';
import type { Deadline } from '../playwright/deadline.js';
import { errorText } from '../playwright/error-text.js';
import type { CdpSession } from './cdp-session.js';
import { visibleElement } from './find-element.js';
import { inPage } from './in-page.js';
import { webDriverKeys } from './key-names.js';
import { navigate } from './open-page.js';
import { waitForLoad } from './wait-for-load.js';

/** Default and longest wait of one step, in seconds, as the Step doc comment in core states. */
const STEP_TIMEOUT_DEFAULT_S = 10;
const STEP_TIMEOUT_MAX_S = 30;
/** The `wait` step's longest pause, in seconds (Step doc: 0 to 30). */
const WAIT_STEP_MAX_S = 30;
/**
 * After a step, how long to let a navigation it started reach `load`: long enough for a same-site
 * form post, short enough that a step on a page that keeps loading costs little (as the Playwright driver).
 */
const SETTLE_AFTER_STEP_MS = 5_000;

function describe(step: Step, index: number): string {
  return `Step ${index + 1} (${step.command}${step.selector ? ` ${step.selector}` : ''})`;
}

function required(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new Error(`${what} is required`);
  return value;
}

async function runStep(driver: WebDriver, cdp: CdpSession, step: Step, deadline: Deadline): Promise<void> {
  const timeoutS = Math.min(step.timeout ?? STEP_TIMEOUT_DEFAULT_S, STEP_TIMEOUT_MAX_S);
  const timeout = deadline.timeout(timeoutS * 1000);
  const target = () => visibleElement(driver, required(step.selector, 'selector'), timeout);
  switch (step.command) {
    case 'click':
      return (await target()).click();
    case 'hover':
      return driver.actions().move({ origin: await target() }).perform();
    case 'type':
      // sendKeys sends real key events, so autocompletes and key listeners react as to a person.
      return (await target()).sendKeys(required(step.value, 'value'));
    case 'select':
      return new Select(await target()).selectByValue(required(step.value, 'value'));
    case 'press': {
      const keys = webDriverKeys(required(step.value, 'value'));
      if (step.selector) {
        const element = await target();
        await driver.executeScript('arguments[0].focus();', element);
      }
      // Modifiers go down first and come up last, as a person presses a combination.
      let actions = driver.actions();
      for (const key of keys) actions = actions.keyDown(key);
      for (const key of [...keys].reverse()) actions = actions.keyUp(key);
      return actions.perform();
    }
    case 'wait': {
      const seconds = Math.min(Math.max(Number.parseFloat(step.value ?? '0') || 0, 0), WAIT_STEP_MAX_S);
      const slept = await deadline.sleep(seconds * 1000);
      if (slept < seconds * 1000 - 1) throw new Error('max_wait passed during the wait');
      return;
    }
    case 'wait_for':
      await target();
      return;
    case 'scroll':
      if (step.selector) {
        await driver.executeScript("arguments[0].scrollIntoView({ block: 'center', inline: 'nearest' });", await target());
        return;
      }
      await inPage(driver, scrollPage, step.value ?? '0');
      return;
    case 'navigate': {
      const url = required(step.value, 'value');
      if (!/^https?:\/\//i.test(url)) throw new Error('value must be an http(s) URL');
      await navigate(cdp, url, null, deadline);
      if (!(await waitForLoad(driver, deadline, timeout))) throw new Error(`${url} did not finish loading within ${timeout} ms`);
      return;
    }
  }
}

/**
 * Runs the steps in order before the capture. A failing step is reported and the next one runs, with
 * the sentences of drivers/playwright/run-steps.ts. Each step's wait ends at the job's deadline at the latest.
 */
export async function runSteps(driver: WebDriver, cdp: CdpSession, steps: Step[], deadline: Deadline, warnings: string[]): Promise<void> {
  for (const [index, step] of steps.entries()) {
    deadline.check();
    try {
      await runStep(driver, cdp, step, deadline);
      await waitForLoad(driver, deadline, SETTLE_AFTER_STEP_MS);
    } catch (error) {
      deadline.check();
      warnings.push(`${describe(step, index)} failed: ${errorText(error)}`);
    }
  }
}
