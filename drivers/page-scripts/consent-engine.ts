/**
 * The page side of hide_popups' consent engine, DuckDuckGo's autoconsent (drivers/shared/consent-engine.ts
 * builds the init script). Both functions are self-contained: they run in the page.
 *
 * Where the page keeps what the engine reported: a registered symbol, as the settle watch does
 * (settle-watch.ts), so it collides with nothing a page defines.
 */
export const CONSENT_LOG_KEY = 'shotfarm.consent';

/** What autoconsent reported in one document: its last state and the outcome messages. */
export interface ConsentLog {
  /** autoconsent's lifecycle (loading, started, nothingDetected, cmpDetected, openPopupDetected, runningOptOut, optOutSucceeded, optOutFailed, done) */
  lifecycle: string;
  /** the rule (consent platform) whose popup was found, if any */
  cmp: string | null;
  /** the result of the opt-out, once it ran */
  optOut: boolean | null;
  /** how many times it has looked for a consent platform, and when the last look began (performance.now()) */
  looks: number;
  lastLookAt: number;
}

/**
 * Runs before autoconsent's content script in every document: it is the "background" autoconsent talks
 * to. `init` is answered with the configuration and the bundled rules (after the content script has
 * registered its receiver, hence the microtask); `report`, `popupFound` and `optOutResult` are kept where
 * consentOutcome() reads them. The engine runs in the page's main world (isMainWorld), so the rules' eval
 * snippets (a platform's own API, e.g. Cookiebot.withdraw()) run in place instead of being sent out.
 */
export function consentBootstrap(key: string, config: unknown, rules: unknown): void {
  const log: ConsentLog = { lifecycle: 'loading', cmp: null, optOut: null, looks: 0, lastLookAt: 0 };
  Object.defineProperty(window, Symbol.for(key), { value: log, configurable: true });
  const receiver = (): ((message: unknown) => Promise<void>) | undefined => (window as unknown as { autoconsentReceiveMessage?: (message: unknown) => Promise<void> }).autoconsentReceiveMessage;
  (window as unknown as { autoconsentSendMessage: (message: Record<string, unknown>) => Promise<void> }).autoconsentSendMessage = (message) => {
    switch (message.type) {
      case 'init':
        queueMicrotask(() => void receiver()?.({ type: 'initResp', config, rules }));
        break;
      case 'report': {
        const state = message.state as { lifecycle?: string; findCmpAttempts?: number } | undefined;
        if (typeof state?.lifecycle === 'string') log.lifecycle = state.lifecycle;
        if (typeof state?.findCmpAttempts === 'number' && state.findCmpAttempts !== log.looks) {
          log.looks = state.findCmpAttempts;
          log.lastLookAt = performance.now();
        }
        break;
      }
      case 'popupFound':
        log.cmp = typeof message.cmp === 'string' ? message.cmp : log.cmp;
        break;
      case 'optOutResult':
        log.optOut = message.result === true;
        if (typeof message.cmp === 'string') log.cmp = message.cmp;
        break;
    }
    return Promise.resolve();
  };
}

/** What the engine did in the top document by the time of a shot. */
export interface ConsentOutcome {
  /** false: the engine is not in this document (a browser error page, a document it could not enter) */
  present: boolean;
  lifecycle: string;
  cmp: string | null;
  optOut: boolean | null;
}

/**
 * Waits, at most `waitMs`, for the engine, then returns what it did in the top document:
 * - while it is still searching, until its `looks`-th look at the page has had `lookMs` to finish, and at
 *   most until the page is `searchMs` old (performance.now(), from the start of the navigation). Consent
 *   platforms insert their banner from a script shortly after load; autoconsent first looks when the page
 *   is idle after DOMContentLoaded, then 500 ms later (and after that only when the DOM changed). A page
 *   whose banner had not appeared by then is not waited for: no rule matched it by the shot;
 * - while it is busy with a banner it found (detected, declining).
 */
export async function consentOutcome(options: { key: string; waitMs: number; looks: number; lookMs: number; searchMs: number }): Promise<ConsentOutcome> {
  const SEARCHING = ['loading', 'waitingForInitResponse', 'initialized', 'started'];
  const BUSY = ['cmpDetected', 'openPopupDetected', 'runningOptOut'];
  const until = Date.now() + options.waitMs;
  const read = (): ConsentLog | undefined => (window as unknown as Record<symbol, ConsentLog | undefined>)[Symbol.for(options.key)];
  const searching = (log: ConsentLog): boolean => {
    if (!SEARCHING.includes(log.lifecycle) || performance.now() >= options.searchMs) return false;
    return log.looks < options.looks || performance.now() - log.lastLookAt < options.lookMs;
  };
  let log = read();
  while (log && (BUSY.includes(log.lifecycle) || searching(log)) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    log = read();
  }
  return log ? { present: true, lifecycle: log.lifecycle, cmp: log.cmp, optOut: log.optOut } : { present: false, lifecycle: 'absent', cmp: null, optOut: null };
}
