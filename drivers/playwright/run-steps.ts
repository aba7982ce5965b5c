import type { Page } from 'playwright-core';
import type { Step } from '../../core/capture-spec.js';
import { scrollPage } from '../page-scripts/scroll-page.js';
import type { Deadline } from './deadline.js';
import { errorText } from './error-text.js';

/** Default and longest wait of one step, in seconds, as the Step doc comment in core states. */
const STEP_TIMEOUT_DEFAULT_S = 10;
const STEP_TIMEOUT_MAX_S = 30;
/** The `wait` step's longest pause, in seconds (Step doc: 0 to 30). */
const WAIT_STEP_MAX_S = 30;
/**
 * After a step, how long to let a navigation it started reach `load`: long enough for a same-site
 * form post, short enough that a step on a page that keeps loading costs little.
 */
const SETTLE_AFTER_STEP_MS = 5_000;

function describe(step: Step, index: number): string {
  return `Step ${index + 1} (${step.command}${step.selector ? ` ${step.selector}` : ''})`;
}

function required(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new Error(`${what} is required`);
  return value;
}

async function runStep(page: Page, step: Step, deadline: Deadline): Promise<void> {
  const timeoutS = Math.min(step.timeout ?? STEP_TIMEOUT_DEFAULT_S, STEP_TIMEOUT_MAX_S);
  const timeout = deadline.timeout(timeoutS * 1000);
  const target = (): ReturnType<Page['locator']> => page.locator(required(step.selector, 'selector')).first();
  switch (step.command) {
    case 'click':
      return target().click({ timeout });
    case 'hover':
      return target().hover({ timeout });
    case 'type':
      // pressSequentially sends real key events, so autocompletes and key listeners react as to a person.
      return target().pressSequentially(required(step.value, 'value'), { timeout });
    case 'select':
      await target().selectOption(required(step.value, 'value'), { timeout });
      return;
    case 'press':
      if (step.selector) return target().press(required(step.value, 'value'), { timeout });
      return page.keyboard.press(required(step.value, 'value'));
    case 'wait': {
      const seconds = Math.min(Math.max(Number.parseFloat(step.value ?? '0') || 0, 0), WAIT_STEP_MAX_S);
      const slept = await deadline.sleep(seconds * 1000);
      if (slept < seconds * 1000 - 1) throw new Error('max_wait passed during the wait');
      return;
    }
    case 'wait_for':
      return target().waitFor({ state: 'visible', timeout });
    case 'scroll':
      if (step.selector) return target().scrollIntoViewIfNeeded({ timeout });
      await page.evaluate(scrollPage, step.value ?? '0');
      return;
    case 'navigate': {
      const url = required(step.value, 'value');
      if (!/^https?:\/\//i.test(url)) throw new Error('value must be an http(s) URL');
      await page.goto(url, { waitUntil: 'load', timeout });
      return;
    }
  }
}

/**
 * Runs the steps in order before the capture. A failing step is reported and the next one runs: a
 * capture that can partly succeed does. Each step's wait ends at the job's deadline at the latest.
 */
export async function runSteps(page: Page, steps: Step[], deadline: Deadline, warnings: string[]): Promise<void> {
  for (const [index, step] of steps.entries()) {
    deadline.check();
    try {
      await runStep(page, step, deadline);
      await page.waitForLoadState('load', { timeout: deadline.timeout(SETTLE_AFTER_STEP_MS) }).catch(() => undefined);
    } catch (error) {
      deadline.check();
      warnings.push(`${describe(step, index)} failed: ${errorText(error)}`);
    }
  }
}
