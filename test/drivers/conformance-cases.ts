import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { BrowserName, CaptureOutput, CaptureSpec, TrackerSpec, VideoSpec } from '../../core/capture-spec.js';
import type { BrowserHandle, LaunchOptions } from '../../core/contracts/browser-driver.js';
import { NO_AD_FILTER_WARNING } from '../../drivers/shared/ad-filter-matches.js';
import { chromiumBrands } from '../../drivers/shared/person-user-agent.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { attackScript } from '../support/hostile-site.js';
import type { PacketListener } from '../support/packet-listener.js';
import { imageSize, near, pdfPages, pixel, probeVideo } from '../support/media-probe.js';
import { readPreJson, readPreText } from '../support/read-pre.js';
import type { TestSite } from '../support/test-site.js';

export interface CaseContext {
  site: TestSite;
  /** a loopback TCP/UDP listener nothing should reach over UDP (WebRTC) */
  listener: PacketListener;
  browser: BrowserName;
  /** a token unique to this run of the case, for counting its own requests on the test site */
  token: string;
  elapsedMs: number;
}

/** One capture option (or combination) checked against every browser it applies to. */
export interface ConformanceCase {
  name: string;
  /** the browsers it applies to; all when left out */
  browsers?: BrowserName[];
  /**
   * The case exercises only what brave shares with chrome: the Chromium engine and the capture pipeline
   * on a page of its own (rendering, page scripts, steps, PDF, video, emulation Playwright sets the same
   * way for both). Brave differs from chrome in two things only, its identity (user agent, client hints,
   * navigator.brave: brave-emulation.ts) and its shields (the filter engine on every request and
   * element: ad-blocker.ts), and nothing such a case does or checks passes through either, so it runs in
   * chrome and not again in brave. A case whose request (headers, cookies, language, a subresource or a
   * network failure) or picture (an overlay, an ad) brave's differences could change leaves this out.
   */
  sameInBrave?: true;
  /**
   * Set when the case does not run again on the Selenium driver (selenium-conformance.test.ts): see
   * SameInSelenium. Left out, the case runs there too.
   */
  sameInSelenium?: SameInSelenium;
  /** a launch variant the case needs (Firefox's dark mode) */
  launch?: (browser: BrowserName) => LaunchOptions;
  spec: (context: CaseContext) => Partial<CaptureSpec> & { url: string };
  /** throws (or rejects) when the output is wrong; what it returns (a chai assertion, a promise of one) is only awaited */
  check: (output: CaptureOutput, context: CaseContext) => unknown;
}

/**
 * A case's capture on `handle` (either driver's): its output and the context its check reads, with a token of
 * its own and the time of the capture alone (tests run captures ahead: test/support/captures-ahead.ts).
 */
export async function captureCase(
  handle: BrowserHandle,
  testCase: ConformanceCase,
  where: Pick<CaseContext, 'site' | 'listener' | 'browser'>,
): Promise<{ output: CaptureOutput; context: CaseContext }> {
  const partial = { ...where, token: randomUUID(), elapsedMs: 0 };
  const { url, ...overrides } = testCase.spec(partial);
  const started = Date.now();
  const output = await handle.capture(captureSpec(where.browser, url, overrides), AbortSignal.timeout(55_000));
  return { output, context: { ...partial, elapsedMs: Date.now() - started } };
}

/**
 * Why a case proves nothing new on the Selenium driver. Both drivers run one capture pipeline
 * (drivers/shared/capture-pipeline.ts) with the same page scripts (drivers/page-scripts/), block lists and
 * video encoder; a driver only supplies the calls beneath them (drivers/shared/capture-adapter.ts: open the
 * page, evaluate in it, the shots, the steps' actions, the PDF, the screencast, the response code). A case
 * whose check depends only on that shared code, through driver calls that other cases still run on Selenium,
 * runs in Playwright's chrome and firefox and not again on the grid, where each capture starts a browser
 * of its own (~3 s). A case that exercises a Selenium call of its own (navigation, headers, cookies, post data,
 * referer, emulation, user agent, language, timezone, geolocation, strict_ssl, element and full-page shots,
 * PDF, video, request blocking, scripts, steps) leaves this out. selenium-conformance.test.ts checks that
 * every case named in `driverCallsIn` runs there.
 */
export interface SameInSelenium {
  /** the shared code the case's check depends on */
  shared: string;
  /** cases that still run on Selenium and go through the driver calls that shared code makes */
  driverCallsIn: string[];
}

/** Cases other cases name in `sameInSelenium.driverCallsIn`: the Selenium calls they exercise. */
const SCREEN = 'size screen: one PNG of the viewport';
const FULL_PAGE = 'size page: the whole page, lazy images loaded';
const FULL_PAGE_SCALED = 'device scale 2 doubles the pixels of a full page too';
const TARGET = 'target: the element only';
const SCRIPTS = 'scripts by URL in order, then the inline script';
const STEPS = 'steps: type, select, click, hover, press, wait_for, scroll, wait; a failing step is a warning';
const REDIRECT = 'redirect chain: final URL and code of the last document';
const NOT_FOUND = '404 is reported';
const UNREACHABLE = 'unreachable: null response code, empty final URL';
const STRICT_SSL_ON = 'strict_ssl on rejects it: unreachable, still an image';
const COOKIES = 'cookies are sent';
const HOME_MADE_BANNER = 'hide_popups: a home-made banner no rule knows is hidden by its look, and the record says no rule matched';
const CONSENT_DECLINED = 'hide_popups rejects the onetrust consent banner: declined in the page, gone from the picture';
const ADS_BLOCKED = 'hide_ads blocks ad and tracker requests';
const AD_SLOTS_HIDDEN = 'hide_ads: the ad iframe is never requested and the ad containers are hidden';
const VIDEO = 'video mp4: codec, minimum duration, scale';
const WAIT_FOR_HIDDEN = 'wait_for_hidden: captured once the spinner has left, the content in the picture';
const WAIT_NOT_MET = 'wait_for not met within max_wait: captured anyway, with a warning naming the selector';
const HOVER = 'hover: the menu opens its submenu';

interface EchoedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  cookies: Record<string, string>;
  body: string;
}
interface PageEnvironment {
  timezone: string;
  language: string;
  dark: boolean;
  touch: boolean;
  innerWidth: number;
  devicePixelRatio: number;
  brands: string[] | null;
  isBrave?: boolean;
  geo: { latitude?: number; longitude?: number; error?: string } | null;
}

const tracker = (id: string, selector: string, valueType: TrackerSpec['value_type'], extra: Partial<TrackerSpec> = {}): TrackerSpec => ({
  id,
  name: id,
  selector,
  value: '',
  input: '',
  name_type: 'static',
  value_type: valueType,
  ...extra,
});
/** The warnings hide_ads added (none when a filter matched the page). */
const hideAdsWarnings = (output: CaptureOutput): string[] => output.warnings.filter((warning) => warning.startsWith('hide_ads'));
const trackerValue = (output: CaptureOutput, id: string, shot = 1): string | undefined => output.trackers.find((t) => t.id === id)?.return.find((r) => r.shot === shot)?.value;
const video = (format: VideoSpec['format'], overrides: Partial<VideoSpec> = {}): VideoSpec => ({
  format,
  quality: 30,
  speed: 1,
  duration: 2,
  fps: 10,
  colors: 64,
  scale: 0.5,
  ...overrides,
});
/** The points of a PDF page: A4 is 210×297 mm, Letter 8.5×11 in, at 72 points per inch. */
const A4_PT = { width: (210 / 25.4) * 72, height: (297 / 25.4) * 72 };
const LETTER_PT = { width: 8.5 * 72, height: 11 * 72 };

/**
 * The consent-platform fixtures (test/fixtures/site/consent/), each in the markup and script shape the
 * platform gives a page, and the cookie its "reject" writes (what the page's state must show afterwards).
 */
/** Rows of test/fixtures/site/adslots/page.html's three slots: the ad server's iframe, a GPT slot, an AdSense <ins>. */
const AD_SLOT_ROWS = [75, 200, 300];
const CONSENT_PLATFORMS = ['onetrust', 'cookiebot', 'didomi', 'quantcast'] as const;
const REJECTED_COOKIE: Record<(typeof CONSENT_PLATFORMS)[number], RegExp> = {
  onetrust: /OptanonConsent=[^;]*groups%3DC0001%3A1(;|$)/,
  cookiebot: /CookieConsent=[^;]*marketing%3Afalse/,
  didomi: /euconsent-v2=CPnone/,
  quantcast: /euconsent-v2=CPnopurposes/,
};

export const CONFORMANCE_CASES: ConformanceCase[] = [
  // ---- size and device ----
  {
    name: SCREEN,
    spec: ({ site }) => ({ url: site.url('/target.html') }),
    check: async (output) => {
      expect(output.images).to.have.length(1);
      expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 800, height: 600 });
    },
  },
  {
    name: 'device scale 2 doubles the pixels',
    sameInBrave: true,
    spec: ({ site }) => ({ url: site.url('/target.html'), device: { name: null, width: 800, height: 600, scale: 2, mobile: false, touch: false, landscape: false } }),
    check: async (output) => expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 1600, height: 1200 }),
  },
  {
    name: FULL_PAGE_SCALED,
    sameInBrave: true,
    spec: ({ site }) => ({ url: site.url('/long.html'), size: 'page', maxHeight: 1200, device: { name: null, width: 800, height: 600, scale: 2, mobile: false, touch: false, landscape: false } }),
    check: async (output) => {
      expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 1600, height: 2400 });
      // Blocks alternate every 1000 CSS px: device row 2100 is CSS row 1050, the second (darker) block.
      expect(near(await pixel(output.images[0]!, 400, 2100), [0xcc, 0xcc, 0xcc])).to.equal(true);
    },
  },
  {
    name: 'device emulation: landscape, mobile, touch',
    spec: ({ site }) => ({ url: site.url('/env.html'), html: true, device: { name: null, width: 400, height: 700, scale: 1, mobile: true, touch: true, landscape: true } }),
    check: async (output, { browser }) => {
      expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 700, height: 400 });
      const env = readPreJson<PageEnvironment>(output.html, 'env');
      expect(env.innerWidth).to.equal(700);
      if (browser === 'firefox') {
        expect(output.warnings.join(' '))
          .to.match(/device_mobile is not emulated on firefox/)
          .and.match(/device_touch is not emulated on firefox/);
      } else {
        expect(env.touch).to.equal(true);
        expect(output.warnings).to.deep.equal([]);
      }
    },
  },
  {
    name: 'user agent',
    spec: ({ site }) => ({ url: site.url('/echo'), html: true, userAgent: 'ShotfarmTest/1.0' }),
    check: (output) => {
      expect(readPreJson<EchoedRequest>(output.html, 'echo').headers['user-agent']).to.equal('ShotfarmTest/1.0');
      expect(output.userAgent).to.equal('ShotfarmTest/1.0');
    },
  },
  {
    name: FULL_PAGE,
    spec: ({ site, token }) => ({ url: site.url(`/long.html?token=${token}`), size: 'page' }),
    check: async (output, { site, token }) => {
      expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 800, height: 5000 });
      expect(site.hits(`/lazy.png?token=${token}`)).to.equal(1);
    },
  },
  ...['/lazy-observer.html', '/lazy-scroll-listener.html'].map((path): ConformanceCase => ({
    name: `size page: what ${path} loads when scrolled to is in`,
    sameInBrave: true,
    sameInSelenium: { shared: 'the lazy-load scroll through the page (page-scripts/lazy-load-scroll.ts, full-page-init.ts)', driverCallsIn: [FULL_PAGE] },
    spec: ({ site, token }) => ({ url: site.url(`${path}?token=${token}`), size: 'page' }),
    check: async (output, { site, token }) => {
      expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 800, height: 4000 });
      expect(site.hits(`/lazy.png?token=${token}`)).to.equal(1);
    },
  })),
  {
    name: 'max height cuts the full page',
    sameInBrave: true,
    sameInSelenium: { shared: "the full page's cut at max_height (shared/page-height-cut.ts)", driverCallsIn: [FULL_PAGE_SCALED] },
    spec: ({ site }) => ({ url: site.url('/long.html'), size: 'page', maxHeight: 1200 }),
    check: async (output) => expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 800, height: 1200 }),
  },
  {
    name: TARGET,
    sameInBrave: true,
    spec: ({ site }) => ({ url: site.url('/target.html'), target: '#target' }),
    check: async (output) => {
      expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 300, height: 200 });
      expect(near(await pixel(output.images[0]!, 150, 100), [0, 0, 255])).to.equal(true);
      expect(output.warnings).to.deep.equal([]);
    },
  },
  {
    name: 'target not found: the page, with a warning',
    sameInBrave: true,
    sameInSelenium: { shared: 'the fall back to the whole page when the target is not found in time (shared/shot-taker.ts)', driverCallsIn: [TARGET, STEPS] },
    spec: ({ site }) => ({ url: site.url('/target.html'), target: '#nope', maxWait: 3 }),
    check: async (output, { elapsedMs }) => {
      expect(await imageSize(output.images[0]!)).to.deep.equal({ width: 800, height: 600 });
      expect(output.warnings.join(' ')).to.match(/The target #nope was not found in time/);
      expect(elapsedMs).to.be.below(10_000);
    },
  },
  // ---- timing ----
  {
    name: 'delay waits after load',
    sameInBrave: true,
    sameInSelenium: { shared: 'the delay (capture-pipeline.ts, shared/deadline.ts) and the trackers read in the page', driverCallsIn: [SCRIPTS] },
    spec: ({ site }) => ({ url: site.url('/delayed.html'), delay: 2, trackers: [tracker('ready', '#ready', 'text')] }),
    check: (output, { elapsedMs }) => {
      expect(trackerValue(output, 'ready')).to.equal('ready');
      expect(elapsedMs).to.be.at.least(2000);
    },
  },
  {
    name: 'max_wait is a deadline: a resource that never finishes does not fail the capture',
    // 6 s, not less: under a load of 20 (two suite files beside other work) Selenium's Page.navigate alone took
    // over 3 s to commit hang.html, so a 3 s deadline sometimes ended the navigation itself (response code null).
    spec: ({ site }) => ({ url: site.url('/hang.html'), maxWait: 6, trackers: [tracker('content', '#content', 'text')] }),
    check: (output, { elapsedMs }) => {
      expect(output.images).to.have.length(1);
      expect(output.responseCode).to.equal(200);
      expect(trackerValue(output, 'content')).to.equal('Visible content');
      expect(output.warnings.join(' ')).to.match(/had not finished loading when max_wait passed/);
      expect(elapsedMs).to.be.below(15_000);
    },
  },
  {
    name: 'shots and shot interval: one image and one final URL per shot',
    sameInBrave: true,
    sameInSelenium: { shared: 'the shots loop (shared/shots-loop.ts): a viewport shot and the shown URL per shot', driverCallsIn: [SCREEN, REDIRECT] },
    spec: ({ site }) => ({ url: site.url('/shots.html'), shots: 3, shotInterval: 1 }),
    check: (output, { site }) => {
      expect(output.images).to.have.length(3);
      expect(output.finalUrls).to.have.length(3);
      for (const url of output.finalUrls) expect(url.startsWith(site.url('/shots.html?n='))).to.equal(true);
      expect(new Set(output.finalUrls).size).to.equal(3);
    },
  },
  // ---- request ----
  {
    name: COOKIES,
    spec: ({ site }) => ({
      url: site.url('/echo'),
      html: true,
      cookies: [
        { name: 'a', value: '1' },
        { name: 'session', value: 'xyz' },
      ],
    }),
    check: (output) => expect(readPreJson<EchoedRequest>(output.html, 'echo').cookies).to.deep.equal({ a: '1', session: 'xyz' }),
  },
  {
    name: 'headers are sent',
    spec: ({ site }) => ({ url: site.url('/echo'), html: true, headers: [{ name: 'X-Shotfarm-Test', value: 'yes' }] }),
    check: (output) => expect(readPreJson<EchoedRequest>(output.html, 'echo').headers['x-shotfarm-test']).to.equal('yes'),
  },
  {
    name: 'post data: the first navigation is a POST',
    spec: ({ site }) => ({ url: site.url('/echo'), html: true, postData: 'a=1&b=two%20words' }),
    check: (output) => {
      const echo = readPreJson<EchoedRequest>(output.html, 'echo');
      expect(echo.method).to.equal('POST');
      expect(echo.body).to.equal('a=1&b=two%20words');
      expect(echo.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    },
  },
  {
    name: 'referer',
    spec: ({ site }) => ({ url: site.url('/echo'), html: true, referer: 'https://referrer.example/page' }),
    check: (output, { browser }) => {
      expect(readPreJson<EchoedRequest>(output.html, 'echo').headers.referer).to.equal('https://referrer.example/page');
      if (browser === 'firefox') expect(output.warnings.join(' ')).to.match(/document\.referrer stays empty/);
      else expect(readPreText(output.html, 'docref')).to.equal('https://referrer.example/page');
    },
  },
  // ---- scripts, steps, trackers ----
  {
    name: SCRIPTS,
    spec: ({ site }) => ({
      url: site.url('/trackers.html'),
      scripts: [site.url('/script-order.js?n=1'), site.url('/script-order.js?n=2')],
      scriptInline: "window.__order.push('inline'); document.getElementById('script-order').textContent = window.__order.join(',');",
      trackers: [tracker('order', '#script-order', 'text')],
    }),
    check: (output) => {
      expect(trackerValue(output, 'order')).to.equal('1,2,inline');
      expect(output.warnings).to.deep.equal([]);
    },
  },
  {
    name: STEPS,
    sameInBrave: true,
    spec: ({ site }) => ({
      url: site.url('/steps.html'),
      steps: [
        { command: 'type', selector: '#name', value: 'Ada' },
        { command: 'select', selector: '#color', value: 'green' },
        { command: 'click', selector: '#go' },
        { command: 'hover', selector: '#hover-me' },
        { command: 'press', selector: '#key', value: 'Enter' },
        { command: 'wait_for', selector: '#late', timeout: 5 },
        { command: 'click', selector: '#does-not-exist', timeout: 1 },
        { command: 'scroll', value: 'bottom' },
        { command: 'wait', value: '0.3' },
      ],
      trackers: [
        tracker('result', '#result', 'text'),
        tracker('hovered', '#hovered', 'text'),
        tracker('pressed', '#pressed', 'text'),
        tracker('late', '#late', 'text'),
        tracker('scrolled', '#scrolled', 'text'),
      ],
    }),
    check: (output) => {
      expect(trackerValue(output, 'result')).to.equal('Ada/green');
      expect(trackerValue(output, 'hovered')).to.equal('yes');
      expect(trackerValue(output, 'pressed')).to.equal('Enter');
      expect(trackerValue(output, 'late')).to.equal('late');
      expect(Number(trackerValue(output, 'scrolled'))).to.be.above(1000);
      expect(output.warnings).to.have.length(1);
      expect(output.warnings[0]).to.match(/^Step 7 \(click #does-not-exist\) failed/);
    },
  },
  {
    name: 'navigate step: the final URL and response code follow it',
    spec: ({ site }) => ({ url: site.url('/steps.html'), steps: [{ command: 'navigate', value: site.url('/missing') }] }),
    check: (output, { site }) => {
      expect(output.finalUrl).to.equal(site.url('/missing'));
      expect(output.responseCode).to.equal(404);
    },
  },
  {
    name: 'trackers: every value and name type, one return entry per shot',
    sameInBrave: true,
    sameInSelenium: { shared: 'the trackers page script (page-scripts/read-trackers.ts), read in the page', driverCallsIn: [SCRIPTS, STEPS] },
    spec: ({ site }) => ({
      url: site.url('/trackers.html'),
      shots: 2,
      trackers: [
        tracker('text', '#price', 'text'),
        tracker('attribute', '#price', 'attribute', { input: 'data-currency' }),
        tracker('html', '#price', 'html'),
        tracker('value', '#query', 'value'),
        tracker('count', '.item', 'count'),
        tracker('exists', '#nothing', 'exists'),
        tracker('missing', '#nothing', 'text'),
        tracker('name-text', '.label', 'text', { name_type: 'text' }),
        tracker('name-attribute', '.label', 'text', { name_type: 'attribute', input: 'data-key' }),
      ],
    }),
    check: (output) => {
      expect(trackerValue(output, 'text')).to.equal('19.99');
      expect(trackerValue(output, 'attribute')).to.equal('EUR');
      expect(trackerValue(output, 'html')).to.equal('<span id="price" data-currency="EUR">19.99</span>');
      expect(trackerValue(output, 'value')).to.equal('hello');
      expect(trackerValue(output, 'count')).to.equal('3');
      const find = (id: string) => output.trackers.find((t) => t.id === id)!;
      expect(find('exists').return[0]).to.deep.equal({ found: 0, value: 'false', name: 'exists', shot: 1 });
      expect(find('missing').return).to.deep.equal([
        { found: 0, name: 'missing', shot: 1 },
        { found: 0, name: 'missing', shot: 2 },
      ]);
      expect(find('name-text').return[0]!.name).to.equal('Price');
      expect(find('name-attribute').return[0]!.name).to.equal('price-label');
      for (const result of output.trackers) expect(result.return.map((r) => r.shot)).to.deep.equal([1, 2]);
    },
  },
  // ---- appearance ----
  {
    name: 'dark: prefers-color-scheme dark',
    sameInBrave: true,
    launch: (browser) => (browser === 'firefox' ? { dark: true } : {}),
    spec: ({ site }) => ({ url: site.url('/env.html'), dark: true, html: true }),
    check: async (output) => {
      expect(readPreJson<PageEnvironment>(output.html, 'env').dark).to.equal(true);
      expect(near(await pixel(output.images[0]!, 5, 590), [0, 0, 0])).to.equal(true);
      expect(output.warnings).to.deep.equal([]);
    },
  },
  {
    name: 'light by default',
    sameInBrave: true,
    spec: ({ site }) => ({ url: site.url('/env.html'), html: true }),
    check: async (output) => {
      expect(readPreJson<PageEnvironment>(output.html, 'env').dark).to.equal(false);
      expect(near(await pixel(output.images[0]!, 5, 590), [255, 255, 255])).to.equal(true);
    },
  },
  {
    name: 'the cookie banner shows without hide_popups',
    sameInSelenium: { shared: "no driver code beyond a viewport shot: the fixture's banner (the hide_popups case counts the overlay it hides)", driverCallsIn: [SCREEN, HOME_MADE_BANNER] },
    spec: ({ site }) => ({ url: site.url('/banner.html') }),
    check: async (output) => expect(near(await pixel(output.images[0]!, 400, 580), [255, 0, 0])).to.equal(true),
  },
  {
    name: HOME_MADE_BANNER,
    spec: ({ site }) => ({ url: site.url('/banner.html'), hidePopups: true }),
    check: async (output) => {
      expect(near(await pixel(output.images[0]!, 400, 580), [255, 255, 255])).to.equal(true);
      expect(output.warnings).to.include('hide_popups: no consent banner rule matched this page. 1 overlay that looked like a popup was hidden instead.');
    },
  },
  {
    name: 'hide_popups: a page without any popup hides nothing and says no rule matched',
    sameInSelenium: { shared: "the popup hider's account of the page (shared/popup-hider.ts)", driverCallsIn: [HOME_MADE_BANNER] },
    spec: ({ site }) => ({ url: site.url('/target.html'), hidePopups: true }),
    check: (output) => expect(output.warnings).to.deep.equal(['hide_popups: no consent banner rule matched this page.']),
  },
  {
    name: 'hide_popups on a page that was never reached adds no hide_popups warning',
    sameInSelenium: { shared: 'the popup hider leaves a page never reached alone (shared/popup-hider.ts, by the response code)', driverCallsIn: [HOME_MADE_BANNER, STRICT_SSL_ON] },
    spec: ({ site }) => ({ url: site.httpsUrl('/echo'), strictSsl: true, maxWait: 10, hidePopups: true }),
    check: (output) => {
      expect(output.responseCode).to.equal(null);
      expect(output.warnings.filter((warning) => warning.startsWith('hide_popups'))).to.deep.equal([]);
    },
  },
  ...CONSENT_PLATFORMS.flatMap((platform): ConformanceCase[] => [
    {
      name: `the ${platform} consent banner shows without hide_popups`,
      sameInBrave: true,
      sameInSelenium: { shared: "no driver code beyond a viewport shot and the page's HTML: the fixture's banner", driverCallsIn: [SCREEN, COOKIES] },
      // The fixtures insert their banner 100 ms after the page's script ran, as a platform's SDK does
      // once loaded: the second's delay makes sure the picture is taken after that.
      spec: ({ site }) => ({ url: site.url(`/consent/${platform}.html`), html: true, delay: 1 }),
      check: async (output) => {
        expect(near(await pixel(output.images[0]!, 400, 580), [255, 0, 0])).to.equal(true);
        expect(readPreJson<{ decision: string }>(output.html, 'consent').decision).to.equal('none');
      },
    },
    {
      name: `hide_popups rejects the ${platform} consent banner: declined in the page, gone from the picture`,
      sameInBrave: true,
      // One platform still runs on Selenium: the consent engine installed before the page's scripts, read back before the shot.
      ...(platform === 'onetrust' ? {} : { sameInSelenium: { shared: "the consent engine's rules for the platform (page-scripts/consent-engine.ts)", driverCallsIn: [CONSENT_DECLINED] } }),
      spec: ({ site }) => ({ url: site.url(`/consent/${platform}.html`), hidePopups: true, html: true }),
      check: async (output) => {
        const consent = readPreJson<{ decision: string; cookie: string }>(output.html, 'consent');
        expect(consent.decision).to.equal('rejected');
        expect(consent.cookie).to.match(REJECTED_COOKIE[platform]);
        expect(near(await pixel(output.images[0]!, 400, 580), [255, 255, 255])).to.equal(true);
        expect(output.warnings.filter((warning) => warning.startsWith('hide_popups'))).to.deep.equal([]);
      },
    },
  ]),
  {
    name: ADS_BLOCKED,
    spec: ({ site, token }) => ({ url: site.url(`/ads-page?token=${token}`), hideAds: true, trackers: [tracker('ad', '#ad-loaded', 'exists')] }),
    check: (output, { site, token }) => {
      expect(site.hits(`/pagead/show_ads.js?token=${token}`)).to.equal(0);
      expect(site.hits(`/ads/banner-728x90.png?token=${token}`)).to.equal(0);
      expect(trackerValue(output, 'ad')).to.equal('false');
      expect(hideAdsWarnings(output)).to.deep.equal([]);
    },
  },
  {
    name: 'without hide_ads ads load (chrome, firefox); brave blocks them anyway',
    spec: ({ site, token }) => ({ url: site.url(`/ads-page?token=${token}`), trackers: [tracker('ad', '#ad-loaded', 'exists')] }),
    check: (output, { site, token, browser }) => {
      const blocked = browser === 'brave';
      expect(site.hits(`/pagead/show_ads.js?token=${token}`)).to.equal(blocked ? 0 : 1);
      expect(trackerValue(output, 'ad')).to.equal(blocked ? 'false' : 'true');
    },
  },
  {
    name: 'without hide_ads the ad slots show (chrome, firefox)',
    browsers: ['chrome', 'firefox'],
    spec: ({ site, token }) => ({ url: site.url(`/adslots/page.html?token=${token}`) }),
    check: async (output, { site, token }) => {
      expect(site.hits(`/adserver/frame.html?token=${token}`)).to.equal(1);
      for (const y of AD_SLOT_ROWS) expect(near(await pixel(output.images[0]!, 400, y), [255, 0, 0]), `row ${y}`).to.equal(true);
    },
  },
  {
    name: AD_SLOTS_HIDDEN,
    spec: ({ site, token }) => ({ url: site.url(`/adslots/page.html?token=${token}`), hideAds: true }),
    check: async (output, { site, token }) => {
      expect(site.hits(`/adserver/frame.html?token=${token}`)).to.equal(0);
      for (const y of AD_SLOT_ROWS) expect(near(await pixel(output.images[0]!, 400, y), [255, 0, 0]), `row ${y}`).to.equal(false);
      expect(hideAdsWarnings(output)).to.deep.equal([]);
    },
  },
  {
    name: 'hide_ads on a page without ads blocks and hides nothing, and the record says no ad filter matched',
    sameInSelenium: { shared: "hide_ads' account of the page (shared/ad-filter-matches.ts, from the request blocker's counts)", driverCallsIn: [ADS_BLOCKED, AD_SLOTS_HIDDEN] },
    spec: ({ site }) => ({ url: site.url('/target.html'), hideAds: true }),
    check: async (output) => {
      expect(output.warnings).to.deep.equal([NO_AD_FILTER_WARNING]);
      // the page's own blue box is untouched
      expect(near(await pixel(output.images[0]!, 200, 500), [0, 0, 255])).to.equal(true);
    },
  },
  {
    name: 'hide_ads: a container only a cosmetic filter matches is hidden, and there is no hide_ads warning',
    sameInSelenium: { shared: 'the cosmetic filters, applied in the page before each shot (shared/ad-filter-matches.ts)', driverCallsIn: [AD_SLOTS_HIDDEN] },
    spec: ({ site }) => ({ url: site.url('/adslots/cosmetic-only.html'), hideAds: true }),
    check: async (output) => {
      expect(near(await pixel(output.images[0]!, 400, 75), [255, 0, 0])).to.equal(false);
      expect(hideAdsWarnings(output)).to.deep.equal([]);
    },
  },
  {
    name: 'hide_ads: a request only a network filter matches is never sent, and there is no hide_ads warning',
    sameInSelenium: { shared: "the request blocker's judgement (shared/block-lists/request-blocker.ts) of a request the driver's interception paused", driverCallsIn: [ADS_BLOCKED] },
    spec: ({ site, token }) => ({ url: site.url(`/adslots/network-only.html?token=${token}`), hideAds: true }),
    check: (output, { site, token }) => {
      expect(site.hits(`/ads/banner-1x1.png?token=${token}`)).to.equal(0);
      expect(hideAdsWarnings(output)).to.deep.equal([]);
    },
  },
  {
    name: 'hide_ads on a page that was never reached adds no hide_ads warning',
    sameInSelenium: { shared: 'hide_ads leaves a page never reached alone (shared/ad-filter-matches.ts, by the response code)', driverCallsIn: [ADS_BLOCKED, STRICT_SSL_ON] },
    spec: ({ site }) => ({ url: site.httpsUrl('/echo'), strictSsl: true, maxWait: 10, hideAds: true }),
    check: (output) => {
      expect(output.responseCode).to.equal(null);
      expect(hideAdsWarnings(output)).to.deep.equal([]);
    },
  },
  // ---- TLS, locale ----
  {
    name: 'strict_ssl off accepts a self-signed certificate',
    spec: ({ site }) => ({ url: site.httpsUrl('/echo'), strictSsl: false }),
    check: (output) => expect(output.responseCode).to.equal(200),
  },
  {
    name: STRICT_SSL_ON,
    spec: ({ site }) => ({ url: site.httpsUrl('/echo'), strictSsl: true, maxWait: 10 }),
    check: (output) => {
      expect(output.responseCode).to.equal(null);
      expect(output.images).to.have.length(1);
      expect(output.warnings.join(' ')).to.match(/The page could not be reached/);
    },
  },
  {
    name: 'geolocation',
    sameInBrave: true,
    spec: ({ site }) => ({
      url: site.url('/env.html'),
      html: true,
      geo: { latitude: 48.8566, longitude: 2.3522 },
      steps: [{ command: 'wait_for', selector: '#env[data-done]', timeout: 5 }],
    }),
    check: (output) => expect(readPreJson<PageEnvironment>(output.html, 'env').geo).to.deep.equal({ latitude: 48.8566, longitude: 2.3522 }),
  },
  {
    name: 'language: navigator.language',
    spec: ({ site }) => ({ url: site.url('/env.html'), html: true, language: 'de-DE' }),
    check: (output) => expect(readPreJson<PageEnvironment>(output.html, 'env').language).to.equal('de-DE'),
  },
  {
    name: 'language: Accept-Language',
    spec: ({ site }) => ({ url: site.url('/echo'), html: true, language: 'de-DE' }),
    check: (output) => expect(readPreJson<EchoedRequest>(output.html, 'echo').headers['accept-language']).to.match(/^de-DE/),
  },
  {
    name: 'timezone',
    sameInBrave: true,
    spec: ({ site }) => ({ url: site.url('/env.html'), html: true, timezone: 'Asia/Tokyo' }),
    check: (output) => expect(readPreJson<PageEnvironment>(output.html, 'env').timezone).to.equal('Asia/Tokyo'),
  },
  // ---- outputs ----
  {
    name: 'html is the rendered DOM; links are absolute, http(s), de-duplicated',
    sameInBrave: true,
    sameInSelenium: { shared: "the links page script (shared/page-after-shots.ts); the page's HTML", driverCallsIn: [COOKIES] },
    spec: ({ site }) => ({ url: site.url('/links.html'), html: true }),
    check: (output, { site }) => {
      expect(output.html).to.include('/added-by-script');
      expect([...output.links].sort()).to.deep.equal([site.url('/echo'), 'https://example.org/page', site.url('/target.html'), site.url('/added-by-script')].sort());
    },
  },
  {
    name: 'pdf: A4, paginated',
    sameInBrave: true,
    spec: ({ site }) => ({
      url: site.url('/long.html'),
      pdf: { format: 'a4', landscape: false, background: true, onePage: false, margin: { top: '10mm', right: '10mm', bottom: '10mm', left: '10mm' } },
    }),
    check: async (output) => {
      const pages = await pdfPages(output.pdf!);
      expect(pages.length).to.be.above(1);
      expect(pages[0]!.width).to.be.closeTo(A4_PT.width, 1);
      expect(pages[0]!.height).to.be.closeTo(A4_PT.height, 1);
    },
  },
  {
    name: 'pdf: Letter landscape',
    sameInBrave: true,
    spec: ({ site }) => ({
      url: site.url('/target.html'),
      pdf: { format: 'letter', landscape: true, background: false, onePage: false, margin: { top: '0px', right: '0px', bottom: '0px', left: '0px' } },
    }),
    check: async (output) => {
      const pages = await pdfPages(output.pdf!);
      expect(pages[0]!.width).to.be.closeTo(LETTER_PT.height, 1);
      expect(pages[0]!.height).to.be.closeTo(LETTER_PT.width, 1);
    },
  },
  {
    name: 'pdf: one page holds the whole document',
    sameInBrave: true,
    spec: ({ site }) => ({
      url: site.url('/long.html'),
      pdf: { format: 'a4', landscape: false, background: true, onePage: true, margin: { top: '0.5in', right: '20px', bottom: '1cm', left: '5mm' } },
    }),
    check: async (output) => {
      const pages = await pdfPages(output.pdf!);
      expect(pages).to.have.length(1);
      expect(pages[0]!.width).to.be.closeTo(A4_PT.width, 1);
      expect(pages[0]!.height).to.be.above(5000 * 0.75); // 5000 CSS px of content = 3750 pt
    },
  },
  // ---- final URL and response code ----
  {
    name: REDIRECT,
    spec: ({ site }) => ({ url: site.url('/redirect/3') }),
    check: (output, { site }) => {
      expect(output.finalUrl).to.equal(site.url('/echo?redirected=3'));
      expect(output.finalUrls).to.deep.equal([site.url('/echo?redirected=3')]);
      expect(output.responseCode).to.equal(200);
    },
  },
  {
    name: NOT_FOUND,
    spec: ({ site }) => ({ url: site.url('/missing') }),
    check: (output) => expect(output.responseCode).to.equal(404),
  },
  {
    name: UNREACHABLE,
    // Port 9 (discard) is closed on a test machine, so the connection is refused at once.
    spec: () => ({ url: 'http://127.0.0.1:9/', maxWait: 10 }),
    check: (output) => {
      expect(output.responseCode).to.equal(null);
      expect(output.finalUrl).to.equal('');
      expect(output.warnings.join(' ')).to.match(/could not be reached/);
    },
  },
  {
    name: 'WebRTC sends no UDP: a STUN/TURN server and a remote candidate on loopback never get a STUN packet (issue #14)',
    sameInBrave: true,
    spec: ({ site, listener }) => ({ url: site.url('/echo?webrtc'), delay: 2, scriptInline: `${attackScript(listener.port, 'about:blank')}\nwindow.__attack('conformance');` }),
    // Without the egress guard (these suites run none) a page may reach loopback over TCP, and Chromium's
    // WebTransport over QUIC; only STUN, WebRTC's UDP, is counted: it must be off with or without a proxy.
    check: (_output, { listener }) => expect(listener.stun().length, listener.describe()).to.equal(0),
  },
  {
    name: "unreachable: the request's scripts and steps are not run on the browser's error page",
    sameInSelenium: { shared: 'the pipeline skips scripts and steps on a page never reached (capture-pipeline.ts, by the response code)', driverCallsIn: [UNREACHABLE, SCRIPTS, STEPS] },
    // A page the egress guard refused is unreachable the same way; a script there would run in the refused
    // URL's origin (issue #14). The script would mark the page, the step would fail with a warning of its own.
    spec: ({ site }) => ({
      url: 'http://127.0.0.1:9/',
      maxWait: 10,
      scriptInline: `fetch(${JSON.stringify(site.url('/echo?script-ran-on-error-page'))})`,
      steps: [{ command: 'click', selector: '#nothing', timeout: 1 }],
    }),
    check: (output, { site }) => {
      expect(output.responseCode).to.equal(null);
      expect(output.warnings).to.include('The page could not be reached: its scripts and steps were not run.');
      expect(site.hits('/echo?script-ran-on-error-page')).to.equal(0);
    },
  },
  // ---- video ----
  ...(['mp4', 'webm', 'gif'] as const).map((format): ConformanceCase => ({
    name: `video ${format}: codec, minimum duration, scale`,
    sameInBrave: true,
    // The screencast's frames are the driver's; turning them into each format is the shared encoder's.
    ...(format === 'mp4' ? {} : { sameInSelenium: { shared: 'the video encoder (drivers/video/video-encoder.ts)', driverCallsIn: [VIDEO] } }),
    spec: ({ site }) => ({ url: site.url('/animation.html'), video: video(format) }),
    check: async (output) => {
      expect(output.video?.format).to.equal(format);
      const probe = await probeVideo(output.video!.data, format);
      expect(probe.codec).to.equal({ mp4: 'h264', webm: 'vp9', gif: 'gif' }[format]);
      expect(probe.width).to.equal(400);
      expect(probe.height).to.equal(300);
      if (format === 'mp4') expect(probe.pixFmt).to.equal('yuv420p');
      // at least the 2 s minimum; the capture itself adds a little
      expect(probe.duration).to.be.within(1.9, 5);
    },
  })),
  {
    name: 'video speed 2 halves the duration',
    sameInBrave: true,
    sameInSelenium: { shared: "the video encoder's speed (drivers/video/video-encoder.ts)", driverCallsIn: [VIDEO] },
    spec: ({ site }) => ({ url: site.url('/animation.html'), video: video('mp4', { speed: 2, duration: 3 }) }),
    check: async (output) => expect((await probeVideo(output.video!.data, 'mp4')).duration).to.be.within(1.4, 2.4),
  },
  // ---- brave ----
  {
    name: 'brave identity: navigator.brave and the Brave brand',
    browsers: ['brave'],
    spec: ({ site }) => ({ url: site.url('/env.html'), html: true }),
    check: (output) => {
      const env = readPreJson<PageEnvironment>(output.html, 'env');
      expect(env.isBrave).to.equal(true);
      expect(env.brands).to.include('Brave');
      expect(output.browserInfo).to.match(/^chromium \d+\.\S+ \(brave emulation\)$/);
      expect(output.userAgent).to.not.include('Headless');
    },
  },
  {
    name: 'brave client hints: Sec-CH-UA names Brave',
    browsers: ['brave'],
    spec: ({ site }) => ({ url: site.url('/echo'), html: true, language: 'fr-FR' }),
    check: (output) => {
      const headers = readPreJson<EchoedRequest>(output.html, 'echo').headers;
      expect(headers['sec-ch-ua']).to.match(/"Brave";v="\d+"/);
      expect(headers['accept-language']).to.match(/^fr-FR/);
    },
  },
  // ---- readiness, conditions, blank detection, a person's User-Agent (beyond-v1.md part 6) ----
  {
    name: 'the spinner fixture: captured at load, its loading overlay is in the picture',
    sameInSelenium: { shared: "no driver code beyond a viewport shot at load: the fixture's overlay", driverCallsIn: [WAIT_FOR_HIDDEN] },
    spec: ({ site }) => ({ url: site.url('/readiness/spinner.html?ms=never'), waitUntil: 'load' }),
    check: async (output) => expect(near(await pixel(output.images[0]!, 400, 200), [0xee, 0xee, 0xee])).to.equal(true),
  },
  {
    name: WAIT_FOR_HIDDEN,
    spec: ({ site }) => ({ url: site.url('/readiness/spinner.html?ms=1500'), waitUntil: 'load', waitForHidden: '.spinner' }),
    check: async (output) => {
      expect(near(await pixel(output.images[0]!, 400, 200), [0, 0x80, 0])).to.equal(true);
      expect(output.timings.wait_for_hidden).to.be.a('number');
      expect(output.warnings).to.deep.equal([]);
      expect(output.blank).to.equal(false);
    },
  },
  {
    name: 'wait_for: captured once the content is visible',
    sameInSelenium: { shared: 'the readiness wait (shared/readiness.ts, page-scripts/selector-state.ts), in the page', driverCallsIn: [WAIT_FOR_HIDDEN, WAIT_NOT_MET] },
    spec: ({ site }) => ({ url: site.url('/readiness/spinner.html?ms=1500'), waitUntil: 'load', waitFor: '#content' }),
    check: async (output) => {
      expect(near(await pixel(output.images[0]!, 400, 200), [0, 0x80, 0])).to.equal(true);
      expect(output.timings.wait_for).to.be.a('number');
      expect(output.warnings).to.deep.equal([]);
    },
  },
  {
    name: WAIT_NOT_MET,
    // max_wait counts from the context's creation: 5 s leaves the page time to load when two test files share
    // the machine's two cores (at 3 s a loaded machine sometimes did not reach it: "could not be reached").
    spec: ({ site }) => ({ url: site.url('/readiness/spinner.html?ms=never'), waitUntil: 'load', waitFor: '#content', maxWait: 5 }),
    check: (output, { elapsedMs }) => {
      expect(output.images).to.have.length(1);
      expect(output.conditionFailed).to.equal(null);
      // A page too busy to answer its last look adds why in brackets, as for wait_strict below (seen in
      // Firefox and Selenium with two test files at once).
      expect(output.warnings.join(' ')).to.match(/wait_for: nothing matching "#content" was visible after \d+\.\d s( \(.+\))?; captured anyway\./);
      // well before the 30 s a wait_for without max_wait may take
      expect(elapsedMs).to.be.below(12_000);
    },
  },
  {
    name: 'wait_strict: a spinner still there at max_wait ends the capture with condition_failed',
    sameInSelenium: { shared: 'a strict readiness wait ends the capture (shared/readiness.ts)', driverCallsIn: [WAIT_NOT_MET] },
    // 5 s: as for wait_for above, the page must be reached within max_wait on a loaded machine.
    spec: ({ site }) => ({ url: site.url('/readiness/spinner.html?ms=never'), waitUntil: 'load', waitForHidden: '.spinner', waitStrict: true, maxWait: 5 }),
    check: (output) => {
      // A page too busy to answer its last look adds why in brackets (seen in Firefox with two test files at once).
      expect(output.conditionFailed).to.match(/^wait_for_hidden: "\.spinner" was still visible after \d+\.\d s( \(.+\))?\.$/);
      expect(output.images).to.deep.equal([]);
      expect(output.responseCode).to.equal(200);
    },
  },
  {
    name: "click: tabs clicked in order, the last one's panel in the picture",
    sameInSelenium: { shared: "the readiness clicks (shared/readiness.ts) through the steps' click", driverCallsIn: [STEPS, HOVER] },
    spec: ({ site }) => ({ url: site.url('/readiness/tabs.html'), html: true, clicks: ['#tab-specs', '#tab-reviews'] }),
    check: async (output) => {
      expect(readPreText(output.html, 'clicks')).to.equal('tab-specs,tab-reviews');
      expect(near(await pixel(output.images[0]!, 400, 200), [0xff, 0x80, 0])).to.equal(true);
      expect(output.timings.click).to.be.a('number');
      expect(output.warnings).to.deep.equal([]);
    },
  },
  {
    name: HOVER,
    spec: ({ site }) => ({ url: site.url('/readiness/tabs.html'), html: true, hover: '#menu' }),
    check: async (output) => {
      expect(readPreText(output.html, 'hovered')).to.equal('yes');
      expect(near(await pixel(output.images[0]!, 250, 500), [0xff, 0xff, 0])).to.equal(true);
      // the overview panel is still the one shown: nothing was clicked
      expect(near(await pixel(output.images[0]!, 400, 200), [0, 0, 0xff])).to.equal(true);
      expect(output.timings.hover).to.be.a('number');
    },
  },
  {
    name: 'the CSP fixture: its policy is in force (its own inline style is refused) and the promo shows',
    sameInSelenium: { shared: "no driver code beyond a viewport shot: the fixture's policy", driverCallsIn: [SCREEN] },
    spec: ({ site }) => ({ url: site.url('/readiness/csp.html') }),
    check: async (output) => {
      expect(near(await pixel(output.images[0]!, 400, 300), [0xff, 0xff, 0xff])).to.equal(true);
      expect(near(await pixel(output.images[0]!, 400, 50), [0xff, 0, 0])).to.equal(true);
    },
  },
  {
    name: 'hide_selector and css on a page whose Content-Security-Policy forbids inline styles',
    sameInSelenium: { shared: 'hide_selector and css as a constructed style sheet (shared/readiness.ts, page-scripts/adopt-style-sheet.ts), in the page', driverCallsIn: [SCRIPTS, AD_SLOTS_HIDDEN] },
    spec: ({ site }) => ({ url: site.url('/readiness/csp.html'), hideSelectors: ['#promo'], css: 'body { background: #008000 !important; }' }),
    check: async (output) => {
      expect(near(await pixel(output.images[0]!, 400, 300), [0, 0x80, 0])).to.equal(true);
      // the promo's box stays (visibility: hidden) and shows the body's background through
      expect(near(await pixel(output.images[0]!, 400, 50), [0, 0x80, 0])).to.equal(true);
      expect(output.timings).to.include.keys('hide_selector', 'css');
      expect(output.warnings).to.deep.equal([]);
    },
  },
  {
    name: 'fail_on_status 4xx: a 404 page ends with condition_failed, no picture',
    sameInSelenium: { shared: 'fail_on_status (shared/conditions.ts) on the response code', driverCallsIn: [NOT_FOUND] },
    spec: ({ site }) => ({ url: site.url('/missing'), failOnStatus: ['5xx', '4xx'] }),
    check: (output) => {
      expect(output.conditionFailed).to.equal('fail_on_status: the page answered with status 404 (4xx).');
      expect(output.images).to.deep.equal([]);
      expect(output.responseCode).to.equal(404);
    },
  },
  {
    name: 'fail_on_status 5xx: a 404 page is captured as usual',
    sameInSelenium: { shared: 'fail_on_status (shared/conditions.ts) on the response code', driverCallsIn: [NOT_FOUND] },
    spec: ({ site }) => ({ url: site.url('/missing'), failOnStatus: ['5xx', '403'] }),
    check: (output) => {
      expect(output.conditionFailed).to.equal(null);
      expect(output.images).to.have.length(1);
    },
  },
  {
    name: 'fail_if_selector: an element that matches ends with condition_failed',
    sameInSelenium: { shared: 'the selector conditions (shared/conditions.ts), in the page', driverCallsIn: [SCRIPTS] },
    spec: ({ site }) => ({ url: site.url('/missing'), failIfSelector: 'h1' }),
    check: (output) => expect(output.conditionFailed).to.equal('fail_if_selector: an element matches "h1".'),
  },
  {
    name: 'fail_unless_selector: checked after the clicks; a panel never shown fails, the clicked one passes',
    sameInSelenium: { shared: 'the selector conditions (shared/conditions.ts) after the readiness clicks', driverCallsIn: [SCRIPTS, STEPS] },
    spec: ({ site }) => ({ url: site.url('/readiness/tabs.html'), clicks: ['#tab-specs'], failUnlessSelector: '#panel-specs:not([hidden])' }),
    check: async (output) => {
      expect(output.conditionFailed).to.equal(null);
      expect(near(await pixel(output.images[0]!, 400, 200), [0, 0x80, 0])).to.equal(true);
    },
  },
  {
    name: 'fail_unless_selector: nothing matches, condition_failed',
    sameInSelenium: { shared: 'the selector conditions (shared/conditions.ts), in the page', driverCallsIn: [SCRIPTS] },
    spec: ({ site }) => ({ url: site.url('/readiness/tabs.html'), failUnlessSelector: '#panel-reviews:not([hidden])' }),
    check: (output) => expect(output.conditionFailed).to.equal('fail_unless_selector: nothing matches "#panel-reviews:not([hidden])".'),
  },
  {
    name: 'blank: an empty white page is blank, with a warning; still a finished capture',
    sameInSelenium: { shared: "the blank check (shared/blank-check.ts): the picture's colours and the page's visible content", driverCallsIn: [SCREEN] },
    spec: ({ site }) => ({ url: site.url('/readiness/blank.html') }),
    check: (output) => {
      expect(output.blank).to.equal(true);
      expect(output.warnings).to.deep.equal(['The capture looks blank: it shows one colour.']);
      expect(output.conditionFailed).to.equal(null);
      expect(output.images).to.have.length(1);
    },
  },
  {
    name: 'blank: a gradient page with nothing on it is blank by its content',
    sameInSelenium: { shared: "the blank check (shared/blank-check.ts): the picture's colours and the page's visible content", driverCallsIn: [SCREEN] },
    spec: ({ site }) => ({ url: site.url('/readiness/blank-gradient.html') }),
    check: (output) => {
      expect(output.blank).to.equal(true);
      expect(output.warnings).to.deep.equal(['The capture looks blank: nothing is visible on the page.']);
    },
  },
  {
    name: 'fail_on_blank: a blank page ends with condition_failed',
    sameInSelenium: { shared: 'fail_on_blank (shared/conditions.ts) on the blank check', driverCallsIn: [SCREEN] },
    spec: ({ site }) => ({ url: site.url('/readiness/blank.html'), failOnBlank: true }),
    check: (output) => expect(output.conditionFailed).to.equal('fail_on_blank: the capture is blank (it shows one colour).'),
  },
  {
    name: "a person's User-Agent: a site that blocks HeadlessChrome shows the article; the hints match the version",
    spec: ({ site }) => ({ url: site.url('/ua-gate'), html: true }),
    check: (output, { browser }) => {
      expect(output.responseCode).to.equal(200);
      const seen = readPreJson<{ userAgent: string; secChUa: string | null }>(output.html, 'seen');
      expect(output.userAgent).to.equal(seen.userAgent);
      expect(seen.userAgent).to.not.match(/Headless/i);
      if (browser === 'firefox') {
        expect(seen.userAgent).to.match(/Firefox\/\d+/);
        expect(seen.secChUa).to.equal(null);
      } else {
        // The brand list that browser of that version sends, GREASE brand included (test/drivers/person-user-agent.test.ts
        // checks the list against a plain Chromium's own).
        const major = /Chrome\/(\d+)\./.exec(seen.userAgent)?.[1] ?? '';
        const brands = chromiumBrands(major, browser === 'brave' ? 'Brave' : null);
        expect(seen.secChUa).to.equal(brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', '));
      }
    },
  },
  {
    name: 'chrome is plain chromium',
    browsers: ['chrome'],
    spec: ({ site }) => ({ url: site.url('/env.html'), html: true }),
    check: (output) => {
      expect(readPreJson<PageEnvironment>(output.html, 'env').brands).to.not.include('Brave');
      expect(output.browserInfo).to.match(/^chromium \d+/);
    },
  },
];
