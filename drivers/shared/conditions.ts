import type { CaptureSpec } from '../../core/capture-spec.js';
import { selectorPresent } from '../page-scripts/selector-state.js';
import type { CapturePage } from './capture-adapter.js';
import { errorText } from './error-text.js';
import { withinOutputTime } from './output-timeout.js';

/**
 * The request's conditions (fail_on_status, fail_if_selector, fail_unless_selector, fail_on_blank). Each
 * answers the one plain sentence the record ends with (`error`, cause condition_failed, cost 0) when the
 * page fails it, else null. A spec stored before they existed asks none of them.
 */

/** Whether status `code` is one of `listed` (codes such as `404` or classes such as `4xx`): the first that matches. */
function matchingStatus(code: number, listed: string[]): string | undefined {
  return listed.find((item) => item === String(code) || (item.endsWith('xx') && item[0] === String(code)[0] && String(code).length === 3));
}

/** fail_on_status: the status of the page's document. */
export function statusCondition(spec: CaptureSpec, responseCode: number | null): string | null {
  if (responseCode === null) return null;
  const match = matchingStatus(responseCode, spec.failOnStatus ?? []);
  if (match === undefined) return null;
  return `fail_on_status: the page answered with status ${responseCode}${match === String(responseCode) ? '' : ` (${match})`}.`;
}

/** fail_if_selector and fail_unless_selector, on the page as the shots will show it. */
export async function selectorConditions(page: CapturePage, spec: CaptureSpec): Promise<string | null> {
  for (const [option, selector, failsWhenPresent] of [
    ['fail_if_selector', spec.failIfSelector ?? null, true],
    ['fail_unless_selector', spec.failUnlessSelector ?? null, false],
  ] as const) {
    if (selector === null) continue;
    const found = await withinOutputTime(page.evaluate(selectorPresent, selector), option).catch((error: unknown) => ({ met: false, invalid: false, error: errorText(error) }));
    if ('error' in found) return `${option}: the page could not be searched for "${selector}" (${found.error}).`;
    if (found.invalid) return `${option}: "${selector}" is not a valid CSS selector.`;
    if (found.met === failsWhenPresent) return failsWhenPresent ? `${option}: an element matches "${selector}".` : `${option}: nothing matches "${selector}".`;
  }
  return null;
}

/** fail_on_blank: the capture was found blank (blank-check.ts says why). */
export function blankCondition(spec: CaptureSpec, blank: string | null): string | null {
  return spec.failOnBlank && blank !== null ? `fail_on_blank: the capture is blank (${blank}).` : null;
}
