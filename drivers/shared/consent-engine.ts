import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CONSENT_LOG_KEY, consentBootstrap } from '../page-scripts/consent-engine.js';

/**
 * hide_popups' consent engine: DuckDuckGo's autoconsent (@duckduckgo/autoconsent, MPL-2.0) with the rules
 * it bundles (several hundred consent platforms: OneTrust, Cookiebot, Didomi, Quantcast, Usercentrics,
 * Sourcepoint, TrustArc…). It recognises a platform's banner and answers it the way a person who declines
 * would (its "reject all", or its settings with every purpose off), so the page also behaves as declined;
 * platforms without a way to decline are hidden by the rules' cosmetic part. Everything is read from the
 * installed package: nothing is fetched at run time.
 */
const require = createRequire(import.meta.url);

/**
 * The engine's settings (autoconsent's Config, lib/types.ts):
 * - optOut: decline, never accept.
 * - prehide: the known banners are hidden by CSS from the first paint until the rule ran (at most
 *   prehideTimeout), so no shot shows a banner half-way through being declined.
 * - isMainWorld: the script runs in the page's own world, so rules that call a platform's API run in place.
 * - detectRetries 20: autoconsent looks again every 500 ms for 10 s, for banners that a platform's script
 *   inserts late; a shot does not wait for that search (consentOutcome).
 */
const CONFIG = {
  enabled: true,
  autoAction: 'optOut',
  disabledCmps: [],
  enablePrehide: true,
  prehideTimeout: 2_000,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  enableHeuristicDetection: false,
  detectRetries: 20,
  isMainWorld: true,
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
};

/** The init script, read and assembled once per process (about 400 kB: the content script and the rules). */
let source: Promise<string> | null = null;

async function assemble(): Promise<string> {
  // The package's "exports" name the rules and the ESM/CJS builds; the Playwright build (a plain script
  // for page.evaluate, the one autoconsent's own browser tests inject) sits beside them in dist/.
  const dist = dirname(require.resolve('@duckduckgo/autoconsent'));
  const [contentScript, compactRules] = await Promise.all([
    readFile(join(dist, 'autoconsent.playwright.js'), 'utf8'),
    readFile(require.resolve('@duckduckgo/autoconsent/rules/compact-rules.json'), 'utf8'),
  ]);
  const rules = `{"compact":${compactRules}}`;
  const bootstrap = `(${consentBootstrap.toString()})(${JSON.stringify(CONSENT_LOG_KEY)}, ${JSON.stringify(CONFIG)}, ${rules});`;
  return `${bootstrap}\n${contentScript}`;
}

/** The consent engine's init script (bootstrap, then autoconsent's content script), built once per process. */
export function consentEngineSource(): Promise<string> {
  source ??= assemble().catch((error: unknown) => {
    source = null; // a failed read is not cached: the next capture tries again
    throw error;
  });
  return source;
}
