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
  // WebRTC only through the proxy, never straight UDP past it (Chromium: CHROMIUM_PROFILE_PREFERENCES).
  // "if behind proxy" depends on a proxy being configured; proxy_only does not. (Measured here, Firefox ESR
  // sent no WebRTC UDP to the loopback listener either way; Chromium sent hundreds of STUN packets.)
  'media.peerconnection.ice.proxy_only_if_behind_proxy': true,
  'media.peerconnection.ice.proxy_only': true,
  // HTTP/3 and WebTransport are QUIC over UDP, which no HTTP proxy carries: a page could reach an address
  // over them that the egress guard never saw.
  'network.http.http3.enable': false,
  'network.webtransport.enabled': false,
  'network.webtransport.datagrams.enabled': false,
};

/**
 * The egress guard as the proxy of the whole Firefox (launch-browser.ts): http and https (every CONNECT,
 * WebSockets included) through it, no host exempt (loopback neither), no direct connection when it fails
 * or refuses, and no SOCKS. A request no capture's context claims carries no credentials and gets 407.
 */
export function firefoxProxyPrefs(proxy: string): Record<string, string | number | boolean> {
  const url = new URL(proxy);
  const port = Number(url.port);
  return {
    'network.proxy.type': 1, // manual
    'network.proxy.http': url.hostname,
    'network.proxy.http_port': port,
    'network.proxy.ssl': url.hostname,
    'network.proxy.ssl_port': port,
    'network.proxy.share_proxy_settings': false,
    'network.proxy.socks': '',
    'network.proxy.socks_port': 0,
    'network.proxy.no_proxies_on': '',
    'network.proxy.allow_hijacking_localhost': true,
    'network.proxy.failover_direct': false,
  };
}

/** Firefox's dark mode: over BiDi prefers-color-scheme follows this launch pref, not a context option. */
export const FIREFOX_DARK_PREFS = { 'ui.systemUsesDarkTheme': 1 };
