/** What an in-page selector look-up found; `invalid` when the browser refuses the selector. */
export interface SelectorLookUp {
  met: boolean;
  invalid: boolean;
}

/**
 * Waits in the page until `selector` is in `state`: `visible` once an element matches it and is visible,
 * `hidden` once nothing matching is (a spinner that left, or never came). Visible is what Playwright calls
 * visible: a non-empty box and no `visibility: hidden`. Looks every 50 ms (a spinner's frame; one look
 * costs well under a millisecond on a page of a few thousand elements) until `timeoutMs`, then answers
 * `met: false`. Runs in the page: self-contained, returns plain JSON.
 */
export function waitForSelectorState(arg: { selector: string; state: 'visible' | 'hidden'; timeoutMs: number }): Promise<SelectorLookUp> {
  const LOOK_EVERY_MS = 50;
  const shown = (element: Element): boolean => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  const met = (): boolean => {
    const any = Array.from(document.querySelectorAll(arg.selector)).some(shown);
    return arg.state === 'visible' ? any : !any;
  };
  return new Promise((resolve) => {
    const ends = Date.now() + arg.timeoutMs;
    const look = (): void => {
      let now: boolean;
      try {
        now = met();
      } catch {
        resolve({ met: false, invalid: true });
        return;
      }
      if (now || Date.now() >= ends) resolve({ met: now, invalid: false });
      else setTimeout(look, Math.min(LOOK_EVERY_MS, Math.max(0, ends - Date.now())));
    };
    look();
  });
}

/** Whether an element matches `selector` in the page now (present, shown or not). Runs in the page. */
export function selectorPresent(selector: string): SelectorLookUp {
  try {
    return { met: document.querySelector(selector) !== null, invalid: false };
  } catch {
    return { met: false, invalid: true };
  }
}
