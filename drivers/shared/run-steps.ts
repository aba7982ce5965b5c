import type { Step } from '../../core/capture-spec.js';
import type { Deadline } from './deadline.js';
import { errorText } from './error-text.js';

/** Default and longest wait of one step, in seconds, as the Step doc comment in core states. */
export const STEP_TIMEOUT_DEFAULT_S = 10;
const STEP_TIMEOUT_MAX_S = 30;
/** The `wait` step's longest pause, in seconds (Step doc: 0 to 30). */
const WAIT_STEP_MAX_S = 30;
/**
 * After a step, how long to let a navigation it started reach `load`: long enough for a same-site
 * form post, short enough that a step on a page that keeps loading costs little.
 */
export const SETTLE_AFTER_STEP_MS = 5_000;

/**
 * What a driver does for each step command. A `selector` is the CSS selector of the first matching
 * element, which each action waits for (visible) at most `timeoutMs`.
 */
export interface StepActions {
  click(selector: string, timeoutMs: number): Promise<void>;
  hover(selector: string, timeoutMs: number): Promise<void>;
  /** Types `text` with real key events, so autocompletes and key listeners react as to a person. */
  type(selector: string, text: string, timeoutMs: number): Promise<void>;
  /** Chooses the option whose value is `value` in a <select>. */
  select(selector: string, value: string, timeoutMs: number): Promise<void>;
  /** Presses a key or combination (`Enter`, `Control+A`) in the element, or in the page without one. */
  press(selector: string | undefined, keys: string, timeoutMs: number): Promise<void>;
  waitFor(selector: string, timeoutMs: number): Promise<void>;
  scrollIntoView(selector: string, timeoutMs: number): Promise<void>;
  /** Scrolls the page by a pixel offset or to the `bottom` (drivers/page-scripts/scroll-page.ts). */
  scrollPage(value: string): Promise<void>;
  /** Loads an http(s) URL and waits for its `load`, at most `timeoutMs`; throws when it does not load. */
  navigate(url: string, timeoutMs: number, deadline: Deadline): Promise<void>;
  /**
   * Lets a navigation the step started reach `load`, at most `ms` and never past the deadline. A page
   * still loading is not an error; only the job's abort makes it throw.
   */
  settle(ms: number, deadline: Deadline): Promise<void>;
}

function describe(step: Step, index: number): string {
  return `Step ${index + 1} (${step.command}${step.selector ? ` ${step.selector}` : ''})`;
}

function required(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new Error(`${what} is required`);
  return value;
}

async function runStep(actions: StepActions, step: Step, deadline: Deadline): Promise<void> {
  const timeoutS = Math.min(step.timeout ?? STEP_TIMEOUT_DEFAULT_S, STEP_TIMEOUT_MAX_S);
  const timeout = deadline.timeout(timeoutS * 1000);
  const selector = (): string => required(step.selector, 'selector');
  switch (step.command) {
    case 'click':
      return actions.click(selector(), timeout);
    case 'hover':
      return actions.hover(selector(), timeout);
    case 'type':
      return actions.type(selector(), required(step.value, 'value'), timeout);
    case 'select':
      return actions.select(selector(), required(step.value, 'value'), timeout);
    case 'press':
      return actions.press(step.selector ? step.selector : undefined, required(step.value, 'value'), timeout);
    case 'wait': {
      const seconds = Math.min(Math.max(Number.parseFloat(step.value ?? '0') || 0, 0), WAIT_STEP_MAX_S);
      const slept = await deadline.sleep(seconds * 1000);
      if (slept < seconds * 1000 - 1) throw new Error('max_wait passed during the wait');
      return;
    }
    case 'wait_for':
      return actions.waitFor(selector(), timeout);
    case 'scroll':
      if (step.selector) return actions.scrollIntoView(step.selector, timeout);
      return actions.scrollPage(step.value ?? '0');
    case 'navigate': {
      const url = required(step.value, 'value');
      if (!/^https?:\/\//i.test(url)) throw new Error('value must be an http(s) URL');
      return actions.navigate(url, timeout, deadline);
    }
  }
}

/**
 * Runs the steps in order before the capture. A failing step is reported and the next one runs: a
 * capture that can partly succeed does. Each step's wait ends at the job's deadline at the latest.
 */
export async function runSteps(actions: StepActions, steps: Step[], deadline: Deadline, warnings: string[]): Promise<void> {
  for (const [index, step] of steps.entries()) {
    deadline.check();
    try {
      await runStep(actions, step, deadline);
      await actions.settle(SETTLE_AFTER_STEP_MS, deadline);
    } catch (error) {
      deadline.check();
      warnings.push(`${describe(step, index)} failed: ${errorText(error)}.`);
    }
  }
}
