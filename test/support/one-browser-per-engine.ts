import { BROWSERS, type BrowserName } from '../../core/capture-spec.js';

/**
 * The browsers a case runs in when it exercises only the engine (a page script, the settle watch, what the
 * page draws): chrome for Chromium and firefox for Gecko. Brave is Chromium with its own identity and
 * shields; the cases those could change run in brave too (test/drivers/conformance-cases.ts: every case
 * without `sameInBrave`), so running an engine-only case again in brave proves nothing chrome did not.
 */
export const ONE_BROWSER_PER_ENGINE: readonly BrowserName[] = BROWSERS.filter((browser) => browser !== 'brave');
