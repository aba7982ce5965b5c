/**
 * Firefox preferences playing the same roles as the Chromium flags (drivers/shared/chromium-flags.ts),
 * where Firefox has an equivalent.
 * - --no-sandbox: not carried over. Firefox's content sandbox degrades by itself where namespaces are
 *   missing and runs here as it is, so it stays on.
 * - --disable-dev-shm-usage: no equivalent (Firefox sizes its shared memory itself).
 */
export const FIREFOX_PREFS: Record<string, string | number | boolean> = {
  'layers.acceleration.disabled': true, // --disable-gpu: no hardware compositing
  'network.prefetch-next': false, // --disable-background-networking: no link prefetching,
  'network.dns.disablePrefetch': true, // no DNS prefetching,
  'network.http.speculative-parallel-limit': 0, // no speculative connections,
  'browser.safebrowsing.update.enabled': false, // no safe-browsing list downloads,
  'network.captive-portal-service.enabled': false, // no captive-portal probes,
  'network.connectivity-service.enabled': false, // no connectivity probes
  'app.update.auto': false, // --disable-component-update: no application updates,
  'extensions.update.enabled': false, // no add-on updates
  'identity.fxaccounts.enabled': false, // --disable-sync: no Firefox account sync
  'browser.aboutwelcome.enabled': false, // --no-first-run: no welcome page
  'datareporting.policy.dataSubmissionEnabled': false, // and no data-reporting notice
  // Overlay scrollbars take no layout width, as in headless Chromium (Playwright hides its scrollbars):
  // an 800 px viewport then captures an 800 px page, not 788 px of page beside a scrollbar.
  'ui.useOverlayScrollbars': 1,
  // When a context has a proxy (the egress guard against SSRF, or a country proxy), loopback goes through
  // it too: by default Firefox connects to localhost and 127.0.0.1 directly, past the guard.
  'network.proxy.allow_hijacking_localhost': true,
  // WebRTC only through the proxy when there is one, never straight UDP past it (Chromium: chromium-flags.ts).
  'media.peerconnection.ice.proxy_only_if_behind_proxy': true,
};

/** Firefox's dark mode: over BiDi prefers-color-scheme follows this launch pref, not a context option. */
export const FIREFOX_DARK_PREFS = { 'ui.systemUsesDarkTheme': 1 };
