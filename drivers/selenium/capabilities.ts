import type { CaptureSpec } from '../../core/capture-spec.js';
import { CHROMIUM_PROFILE_PREFERENCES } from '../shared/chromium-flags.js';
import { viewportOf } from '../shared/viewport.js';

/**
 * Script timeout of a session, in ms. Every in-page call is also raced against the job's deadline or
 * the output time limit, which are shorter; this only has to be longer than any of them (max_wait
 * is capped at minutes, and 10 minutes is past any job).
 */
const SCRIPT_TIMEOUT_MS = 600_000;

/**
 * The W3C capabilities of one capture's session. Everything chromedriver can set at session start is
 * set here (the rest is applied over CDP, see page-emulation.ts):
 * - the viewport, device scale, mobile layout and touch through chromedriver's mobileEmulation
 *   deviceMetrics (chromedriver applies them to every page with CDP's device metrics override),
 * - the user agent and the language (`--lang` gives navigator.language, the pref gives Accept-Language),
 * - dark mode, acceptInsecureCerts = !strictSsl.
 * pageLoadStrategy `none`: the capture waits for the load itself, under its own deadline, so that
 * chromedriver never blocks a command on a page that keeps loading.
 */
export function sessionCapabilities(spec: CaptureSpec, chromeFlags: readonly string[], binary: string | undefined): Record<string, unknown> {
  const viewport = viewportOf(spec);
  const args = [
    ...chromeFlags,
    // The window as large as the viewport, so that nothing the page measures on window.outer* differs.
    `--window-size=${viewport.width},${viewport.height}`,
    ...(spec.proxy ? proxyFlags(spec.proxy) : []),
    ...(spec.userAgent ? [`--user-agent=${spec.userAgent}`] : []),
    ...(spec.language ? [`--lang=${spec.language}`] : []),
    // Dark mode as the system theme: prefers-color-scheme follows it in every renderer process. (CDP's
    // emulated media is lost when a navigation moves the page to a new renderer process while
    // chromedriver's own CDP session is attached too.)
    ...(spec.dark ? ['--force-dark-mode'] : []),
  ];
  return {
    browserName: 'chrome',
    acceptInsecureCerts: !spec.strictSsl,
    pageLoadStrategy: 'none',
    timeouts: { script: SCRIPT_TIMEOUT_MS },
    'goog:chromeOptions': {
      ...(binary ? { binary } : {}),
      args,
      // The same profile preferences as Playwright's Chromium (WebRTC sends no UDP around the proxy).
      prefs: { ...CHROMIUM_PROFILE_PREFERENCES, ...(spec.language ? { 'intl.accept_languages': spec.language } : {}) },
      mobileEmulation: {
        deviceMetrics: {
          width: viewport.width,
          height: viewport.height,
          pixelRatio: spec.device.scale,
          mobile: spec.device.mobile,
          touch: spec.device.touch,
        },
      },
    },
  };
}

/**
 * The proxy of the whole session's browser (a grid session is a browser of its own): the agent's egress
 * guard, on a port of this capture's own (node-agent/egress/egress-guard.ts), or a country proxy when
 * private targets are allowed. Chromium's switches rather than WebDriver's proxy capability, for the
 * bypass list: `<-loopback>` sends loopback through the proxy too (Chromium bypasses it by default), as
 * the Playwright driver does, so that the guard sees and refuses a page on this machine. A fixed proxy
 * has no direct fallback. Credentials in the URL are not passed: Chromium's switch takes none.
 */
function proxyFlags(proxy: string): string[] {
  const url = new URL(proxy);
  return [`--proxy-server=${url.protocol}//${url.host}`, '--proxy-bypass-list=<-loopback>'];
}
