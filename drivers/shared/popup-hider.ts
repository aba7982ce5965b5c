import { CONSENT_LOG_KEY, consentOutcome, type ConsentOutcome } from '../page-scripts/consent-engine.js';
import { hidePopups } from '../page-scripts/hide-popups.js';
import type { CapturePage } from './capture-adapter.js';
import { consentEngineSource } from './consent-engine.js';
import type { Deadline } from './deadline.js';
import { errorText } from './error-text.js';
import { withinOutputTime } from './output-timeout.js';

/**
 * How long a shot waits for the consent engine once it has found a banner and is declining it. The
 * longest bundled rules for the common platforms take about 2 s (OneTrust's settings path: open, untick,
 * save; Cookiebot: withdraw, wait 1 s, hide); 4 s leaves room on a loaded machine. A page without a
 * banner never waits: the wait only runs while a rule is busy.
 */
const CONSENT_WAIT_MS = 4_000;
/**
 * How long a shot waits for the engine's search on a page where it has found nothing yet: until its
 * second look at the page (autoconsent looks when the page is idle after DOMContentLoaded, then 500 ms
 * later) has had 100 ms to finish, and never once the page is 2 s old. Platforms insert their banner from
 * a script shortly after load, so the second look finds what the first missed. This is what hide_popups
 * costs on a page without a banner: make bench-popups measured the median capture +0.8 s in chrome
 * (1.08 → 1.88 s) and +1.2 s in firefox on the shared 2-core machine, against +2.0 s in chrome for waiting
 * out a flat 2 s (test/bench/popup-ad-cost.ts).
 */
const CONSENT_LOOKS = 2;
const CONSENT_LOOK_MS = 100;
const CONSENT_SEARCH_MS = 2_000;

/** The warning when no consent rule recognised the page, as the record shows it. */
export const NO_CONSENT_RULE_WARNING = 'hide_popups: no consent banner rule matched this page.';

/**
 * hide_popups for one capture. The consent engine (consent-engine.ts) is installed before the page
 * loads and declines a banner it recognises; before each shot the hider reads what it did. When no rule
 * matched, or declining failed, the generic overlay hide (page-scripts/hide-popups.ts: fixed elements
 * that talk about cookies, large modal overlays) runs instead, before every shot, and the record says so
 * once.
 */
export class PopupHider {
  private outcome: ConsentOutcome | null = null;

  constructor(private readonly page: CapturePage) {}

  /** Installs the engine in every document the page opens from now on; call before the navigation. */
  async install(warnings: string[]): Promise<void> {
    await this.page.addInitScript(await consentEngineSource()).catch((error: unknown) => {
      warnings.push(`hide_popups: the consent engine could not be installed (${errorText(error)}); overlays were hidden by their look only.`);
    });
  }

  /** Runs before every shot: waits for a decline in progress, else hides generic overlays. */
  async beforeShot(deadline: Deadline, warnings: string[]): Promise<void> {
    // A page that was never reached shows the browser's own error page: there is nothing to decline.
    if (this.page.responseCode() === null) return;
    if (this.outcome === null || !handled(this.outcome)) {
      const waitMs = Math.max(0, Math.min(CONSENT_WAIT_MS, deadline.remaining()));
      const outcome = await withinOutputTime(
        this.page.evaluate(consentOutcome, { key: CONSENT_LOG_KEY, waitMs, looks: CONSENT_LOOKS, lookMs: CONSENT_LOOK_MS, searchMs: CONSENT_SEARCH_MS }),
        'the consent engine',
      ).catch((error: unknown) => {
        warnings.push(`Popups could not be hidden: ${errorText(error)}.`);
        return null;
      });
      if (outcome === null) return;
      const first = this.outcome === null;
      this.outcome = outcome;
      if (handled(outcome)) return;
      const hidden = await withinOutputTime(this.page.evaluate(hidePopups), 'hiding popups').catch((error: unknown) => {
        warnings.push(`Popups could not be hidden: ${errorText(error)}.`);
        return 0;
      });
      if (first) warnings.push(explain(outcome, hidden));
    }
  }
}

/** The engine declined (or, for platforms without a decline, hid) the banner it found. */
const handled = (outcome: ConsentOutcome): boolean => outcome.optOut === true || outcome.lifecycle === 'done' || outcome.lifecycle === 'optOutSucceeded';

function explain(outcome: ConsentOutcome, hidden: number): string {
  const fallback = hidden > 0 ? ` ${hidden} overlay${hidden === 1 ? '' : 's'} that looked like a popup ${hidden === 1 ? 'was' : 'were'} hidden instead.` : '';
  if (outcome.cmp !== null && outcome.optOut === false) return `hide_popups: the ${outcome.cmp} consent banner could not be declined.${fallback}`;
  if (outcome.cmp !== null) return `hide_popups: the ${outcome.cmp} consent banner was still being declined at the shot.${fallback}`;
  return `${NO_CONSENT_RULE_WARNING}${fallback}`;
}
