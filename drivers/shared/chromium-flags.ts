/**
 * Features Playwright (1.64.1, its chromiumSwitches.ts) disables in every Chromium it launches: media
 * router, translate, paint holding, storage partitioning and interception fixes, start-up network calls.
 * Chromium reads only the LAST --disable-features switch of its command line, and ours comes after
 * Playwright's, so ours must repeat them or they would all come back on. test/drivers/chromium-flags.test.ts
 * fails when a Playwright upgrade disables a feature this list lacks. Selenium sessions get the same list,
 * so both drivers run the same browser.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'DialMediaRouteProvider',
  'GlobalMediaControls',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'BlockOriginHeaderModificationOnRedirect',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'Translate',
  'AutoDeElevate',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * LocalNetworkAccessChecks: Chromium 156 refuses a request from a document it counts as public to a private
 * or loopback address ("the request client is not a secure context and the resource is in more-private
 * address space"). A source document (source_html, drivers/source/source-document.ts) is answered by the
 * driver, so Chromium counts it public, and its images on an intranet host the operator allows were refused
 * (measured: an image on 127.0.0.1 decoded 0 px wide, 64 with the checks off). Which addresses a capture may
 * reach is the egress guard's decision (SHOTFARM_ALLOW_PRIVATE_TARGETS, the allowlist), not the browser's.
 *
 * Chromium 156's headless mode builds the omnibox's two WebUI popups (chrome://omnibox-popup.top-chrome/
 * and its AI-mode page, each a renderer of its own) for every new window, which means for every capture's
 * context. Nobody sees an omnibox here. Measured on the 2-core reference machine: a context with its page
 * took 227 ms (median of 10) with them and 124 ms without.
 */
const SHOTFARM_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'LocalNetworkAccessChecks'];

/**
 * Chromium command-line flags for every launch, each one for a reason:
 * the browsers run headless in containers and on servers, and each capture must start from nothing.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox', // containers usually lack the user namespaces Chromium's sandbox needs (and we run as root)
  '--disable-gpu', // no GPU on a server: skip GPU process start-up and its fallbacks
  '--disable-dev-shm-usage', // Docker's /dev/shm is 64 MB; shared memory goes to /tmp instead of crashing tabs
  '--disable-background-networking', // no safe-browsing, suggestions or variations traffic next to the page's own
  '--disable-component-update', // no component downloads (there is no internet on a farm node anyway)
  '--disable-sync', // no account sync
  '--no-first-run', // no first-run dialogs or welcome page
  // WebRTC may not send UDP around the context's proxy. Only content_shell and the old headless shell read
  // this switch; full Chromium (Playwright's and Selenium's here) takes CHROMIUM_PROFILE_PREFERENCES instead.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...SHOTFARM_DISABLED_FEATURES].join(',')}`,
];

/**
 * Profile preferences every Playwright Chromium starts with (drivers/playwright/chromium-profile.ts writes
 * them in its profile; the capture contexts, off-the-record profiles of it, read them through).
 * - webrtc.ip_handling_policy: WebRTC never sends UDP that does not go through the proxy, so ICE and STUN
 *   cannot reach a private address (or tell the node's own) around the egress guard. Full Chromium reads it
 *   only from here (or an enterprise policy): --force-webrtc-ip-handling-policy is not read by the browser
 *   Playwright runs, and measured here a page's RTCPeerConnection sent 1,265 STUN packets to a loopback
 *   listener with that switch on (test/integration/egress-escape.test.ts).
 */
export const CHROMIUM_PROFILE_PREFERENCES = {
  webrtc: { ip_handling_policy: 'disable_non_proxied_udp' },
};
