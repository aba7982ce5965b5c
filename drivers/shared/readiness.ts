import type { CaptureSpec } from '../../core/capture-spec.js';
import { adoptStyleSheet } from '../page-scripts/adopt-style-sheet.js';
import { waitForSelectorState, type SelectorLookUp } from '../page-scripts/selector-state.js';
import type { CapturePage } from './capture-adapter.js';
import type { Deadline } from './deadline.js';
import { errorText } from './error-text.js';
import { withinOutputTime } from './output-timeout.js';
import type { PhaseClock } from './phase-clock.js';
import { SETTLE_AFTER_STEP_MS, STEP_TIMEOUT_DEFAULT_S } from './run-steps.js';
import { TARGET_WAIT_MS } from './shot-taker.js';

/** The readiness options of a spec; a spec stored before they existed asks none of them. */
export interface Readiness {
  waitFor: string | null;
  waitForHidden: string | null;
  waitStrict: boolean;
  clicks: string[];
  hover: string | null;
  hideSelectors: string[];
  css: string | null;
}

export function readinessOf(spec: CaptureSpec): Readiness {
  return {
    waitFor: spec.waitFor ?? null,
    waitForHidden: spec.waitForHidden ?? null,
    waitStrict: spec.waitStrict ?? false,
    clicks: spec.clicks ?? [],
    hover: spec.hover ?? null,
    hideSelectors: spec.hideSelectors ?? [],
    css: spec.css ?? null,
  };
}

/**
 * How long a click or the hover waits for its element to be visible: a step's default wait (10 s), since
 * they act on what the page already shows once it settled (a tab, a menu), not on what it is still loading.
 */
const ACTION_WAIT_MS = STEP_TIMEOUT_DEFAULT_S * 1000;
/** After a failed in-page look (the page navigated meanwhile), how long before looking again. */
const LOOK_AGAIN_MS = 100;
/**
 * The page stops looking this long before the wait's end, so that its answer ("not met") arrives before the
 * deadline ends the call: an in-page call's round trip takes a few ms, and under 100 ms on the loaded 2-core machine.
 */
const ANSWER_MS = 250;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Waits until `selector` is in `state` in the page, at most `timeoutMs` and never past the deadline. A look
 * the page interrupted (a navigation destroys its context) is tried again while there is time.
 */
async function waitForState(page: CapturePage, selector: string, state: 'visible' | 'hidden', timeoutMs: number, deadline: Deadline): Promise<SelectorLookUp & { error?: string }> {
  const ends = Date.now() + timeoutMs;
  let error = '';
  for (;;) {
    deadline.check();
    const left = Math.max(0, Math.min(ends - Date.now(), deadline.remaining()));
    try {
      // The page stops looking just before `left`; the race only ends a page that does not answer at all.
      return await deadline.race(page.evaluate(waitForSelectorState, { selector, state, timeoutMs: Math.max(0, left - ANSWER_MS) }), `the ${state} wait`, left);
    } catch (failure) {
      deadline.check();
      error = errorText(failure);
    }
    if (Date.now() + LOOK_AGAIN_MS >= Math.min(ends, Date.now() + deadline.remaining())) return { met: false, invalid: false, error };
    await deadline.sleep(LOOK_AGAIN_MS);
  }
}

/**
 * One wait of the readiness phase (`wait_for` or `wait_for_hidden`). Not met in time: a warning naming the
 * selector and the capture goes on (best attempt), or with wait_strict the sentence that ends the record.
 */
async function readinessWait(
  page: CapturePage,
  option: 'wait_for' | 'wait_for_hidden',
  selector: string,
  ready: Readiness,
  capMs: number,
  deadline: Deadline,
  warnings: string[],
): Promise<string | null> {
  const timeoutMs = deadline.timeout(capMs);
  const state = option === 'wait_for' ? 'visible' : 'hidden';
  const started = Date.now();
  const found = await waitForState(page, selector, state, timeoutMs, deadline);
  if (found.met) return null;
  const waited = seconds(Date.now() - started);
  const why = found.invalid
    ? `"${selector}" is not a valid CSS selector`
    : state === 'visible'
      ? `nothing matching "${selector}" was visible after ${waited}`
      : `"${selector}" was still visible after ${waited}`;
  const detail = found.error ? ` (${found.error})` : '';
  if (ready.waitStrict) return `${option}: ${why}${detail}.`;
  warnings.push(`${option}: ${why}${detail}; captured anyway.`);
  return null;
}

/**
 * The readiness phase, after the steps and before the shots, in the order a person would see: the waits
 * (wait_for, then wait_for_hidden), the clicks in order and the hover, then the hidden elements and the
 * request's CSS. Each is a `timings` entry named after its option. The waits last at most max_wait when
 * given, else 30 s (as `target` does), and never past the deadline. Returns the sentence of a strict wait
 * that was not met (the record ends `error`), else null; everything else that fails is a warning.
 */
export async function runReadiness(page: CapturePage, spec: CaptureSpec, deadline: Deadline, warnings: string[], clock: PhaseClock): Promise<string | null> {
  const ready = readinessOf(spec);
  const waitCapMs = spec.maxWait > 0 ? spec.maxWait * 1000 : TARGET_WAIT_MS;
  for (const [option, selector] of [
    ['wait_for', ready.waitFor],
    ['wait_for_hidden', ready.waitForHidden],
  ] as const) {
    if (selector === null) continue;
    const failed = await readinessWait(page, option, selector, ready, waitCapMs, deadline, warnings);
    clock.lap(option);
    if (failed !== null) return failed;
  }
  for (const [index, selector] of ready.clicks.entries()) {
    deadline.check();
    try {
      await page.steps.click(selector, deadline.timeout(ACTION_WAIT_MS));
      // A click that follows a link loads another page: let it reach `load`, as after a step.
      await page.steps.settle(SETTLE_AFTER_STEP_MS, deadline);
    } catch (error) {
      deadline.check();
      warnings.push(`click ${index + 1} ("${selector}") failed: ${errorText(error)}.`);
    }
  }
  if (ready.clicks.length > 0) clock.lap('click');
  if (ready.hover !== null) {
    await page.steps.hover(ready.hover, deadline.timeout(ACTION_WAIT_MS)).catch((error: unknown) => {
      deadline.check();
      warnings.push(`hover ("${ready.hover}") failed: ${errorText(error)}.`);
    });
    clock.lap('hover');
  }
  if (ready.hideSelectors.length > 0) {
    const added = await withinOutputTime(page.evaluate(adoptStyleSheet, { css: '', hide: ready.hideSelectors }), 'hiding elements').catch((error: unknown) => {
      warnings.push(`hide_selector: the elements could not be hidden: ${errorText(error)}.`);
      return null;
    });
    for (const selector of added?.invalid ?? []) warnings.push(`hide_selector: "${selector}" is not a valid CSS selector; nothing was hidden for it.`);
    clock.lap('hide_selector');
  }
  if (ready.css !== null) {
    await withinOutputTime(page.evaluate(adoptStyleSheet, { css: ready.css, hide: [] }), 'adding the CSS').catch((error: unknown) => {
      warnings.push(`css: the style sheet could not be added: ${errorText(error)}.`);
    });
    clock.lap('css');
  }
  return null;
}
