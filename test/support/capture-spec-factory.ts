import type { BrowserName, CaptureSpec } from '../../core/capture-spec.js';

/**
 * A complete CaptureSpec with quiet defaults (a small 800×600 viewport keeps PNGs and videos cheap),
 * overridden per test. The defaults mirror what core's normaliser resolves for an empty request.
 */
export function captureSpec(browser: BrowserName, url: string, overrides: Partial<CaptureSpec> = {}): CaptureSpec {
  return {
    id: 0,
    url,
    browser,
    country: 'us',
    region: '',
    language: 'en-US',
    timezone: 'UTC',
    geo: null,
    size: 'screen',
    maxHeight: 0,
    device: { name: null, width: 800, height: 600, scale: 1, mobile: false, touch: false, landscape: false },
    userAgent: null,
    target: null,
    waitUntil: 'settled',
    delay: 0,
    maxWait: 15,
    shots: 1,
    shotInterval: 0,
    cookies: [],
    headers: [],
    postData: null,
    referer: null,
    scripts: [],
    scriptInline: null,
    steps: [],
    trackers: [],
    dark: false,
    hidePopups: false,
    hideAds: false,
    strictSsl: false,
    html: false,
    pdf: null,
    video: null,
    ...overrides,
  };
}
