/**
 * CaptureSpec: the one normalised, validated form of a screenshot request for ONE url × ONE country.
 * It is built once by the control plane (api/options/create-request.ts) and travels unchanged from the API through the
 * queue to the node agent and its browser driver. Every default is already resolved here, so a driver
 * never has to guess: what it reads is what the record says.
 */
export const BROWSERS = ['chrome', 'firefox', 'brave'] as const;
export type BrowserName = (typeof BROWSERS)[number];

/**
 * When the capture starts after the page opened: at `domcontentloaded`, at `load`, once the network has
 * been idle for 500 ms after load (`networkidle`, as peer services mean it), or once the page has settled
 * after load (`settled`, the default: no request in flight for a short quiet window, fonts loaded, no
 * layout change across animation frames; bounded by SHOTFARM_SETTLE_CAP_SECONDS). `delay` waits on top.
 */
export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle', 'settled'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

/** The stored image's format (beyond-v1.md part 4): PNG by default; JPEG and WebP lossy at `imageQuality`. */
export const IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** What the image shows: the viewport (`screen`) or the whole page (`page`). */
export const CAPTURE_SIZES = ['screen', 'page'] as const;
export type CaptureSize = (typeof CAPTURE_SIZES)[number];

/** Resource types `block_resources` can keep from loading (the browsers' own names for them). */
export const BLOCKABLE_RESOURCES = ['image', 'media', 'font', 'stylesheet', 'script'] as const;
export type BlockableResource = (typeof BLOCKABLE_RESOURCES)[number];
/**
 * What a capture's record counts as blocked, per category (beyond-v1.md part 6): maintained lists
 * (block_chats, block_social, block_trackers, hide_ads and brave's shields), `block_resources` and `block_urls`.
 */
export const BLOCKED_CATEGORIES = ['ads', 'trackers', 'chats', 'social', 'resources', 'urls'] as const;
export type BlockedCounts = Record<(typeof BLOCKED_CATEGORIES)[number], number>;
/** Nothing blocked: a capture that blocked nothing, a record still processing or older than the count. */
export const NOTHING_BLOCKED: Readonly<BlockedCounts> = Object.freeze({ ads: 0, trackers: 0, chats: 0, social: 0, resources: 0, urls: 0 });

export const STEP_COMMANDS = ['click', 'type', 'wait', 'wait_for', 'scroll', 'hover', 'select', 'press', 'navigate'] as const;
export type StepCommand = (typeof STEP_COMMANDS)[number];

/**
 * One automation step, run in order before the capture.
 * - click, hover: `selector` required.
 * - type: `selector` and `value` (the text) required.
 * - select: `selector` of a <select> and `value` (option value) required.
 * - press: `value` is a key name such as `Enter` or `Control+A`; `selector` optional (focuses it first).
 * - wait: `value` is the number of seconds to wait (0 to 30).
 * - wait_for: `selector` to wait for; `timeout` seconds (default 10, at most 30).
 * - scroll: `selector` scrolls that element into view; otherwise `value` is a pixel offset or `bottom`.
 * - navigate: `value` is an http(s) URL to load.
 */
export interface Step {
  command: StepCommand;
  selector?: string;
  value?: string;
  timeout?: number;
}

export const TRACKER_VALUE_TYPES = ['text', 'html', 'attribute', 'value', 'count', 'exists'] as const;
export type TrackerValueType = (typeof TRACKER_VALUE_TYPES)[number];
export const TRACKER_NAME_TYPES = ['static', 'text', 'attribute'] as const;
export type TrackerNameType = (typeof TRACKER_NAME_TYPES)[number];

/**
 * A tracker reads a value from the page at every shot.
 * - `selector`: CSS selector of the element(s) read.
 * - `value_type`: text (innerText), html (outerHTML), attribute (the attribute named by `input`),
 *   value (form control value), count (number of matches), exists ("true"/"false").
 * - `name_type`: static (the name is `name`), text (the matched element's text), attribute (its attribute `input`).
 * The record's tracker carries `return`: one entry per shot with found 1/0, the shot number, value and name.
 */
export interface TrackerSpec {
  id: string;
  name: string;
  selector: string;
  value: string;
  input: string;
  name_type: TrackerNameType;
  value_type: TrackerValueType;
}

export interface TrackerReturn {
  found: 0 | 1;
  shot: number;
  value?: string;
  name: string;
}
export interface TrackerResult extends TrackerSpec {
  return: TrackerReturn[];
}

export const PDF_FORMATS = ['a4', 'letter', 'legal'] as const;
export type PdfFormat = (typeof PDF_FORMATS)[number];
export const VIDEO_FORMATS = ['mp4', 'webm', 'gif'] as const;

/** What `markdown` converts: the page's main content (its article, as a reader view finds it) or the whole body. */
export const MARKDOWN_MODES = ['main', 'full'] as const;
export type MarkdownMode = (typeof MARKDOWN_MODES)[number];
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

export interface HttpHeader {
  name: string;
  value: string;
}
export interface Cookie {
  name: string;
  value: string;
}

export interface DeviceEmulation {
  /** the catalogue name, or null when the device was described by width/height/scale/flags */
  name: string | null;
  width: number;
  height: number;
  scale: number;
  mobile: boolean;
  touch: boolean;
  landscape: boolean;
}

export interface PdfSpec {
  format: PdfFormat;
  landscape: boolean;
  background: boolean;
  /** the whole page on one sheet instead of paginating */
  onePage: boolean;
  /** CSS lengths, for example `10px`, `5mm`, `0.5in` */
  margin: { top: string; right: string; bottom: string; left: string };
}

export interface VideoSpec {
  format: VideoFormat;
  /** 0 to 63, lower is better (mapped onto the encoder's CRF / GIF palette dithering) */
  quality: number;
  /** playback speed multiplier, 0.1 to 5 */
  speed: number;
  /** minimum recording seconds, 0 = record only while the page loads and the capture runs */
  duration: number;
  fps: number;
  /** GIF palette size, 2 to 256 */
  colors: number;
  /** output scale relative to the viewport, 0.1 to 1 */
  scale: number;
}

/**
 * The CaptureSpec fields that are one capture option's value as is (or its default): the option table
 * (api/options/create-params.ts) names each in its entry's `spec`, and checks at compile time that its
 * `spec` entries fill exactly these fields with these types. Their ranges and defaults are the options'.
 */
export interface PlainSpecFields {
  browser: BrowserName;
  /** seconds to wait after the page is ready (`waitUntil`), before the first shot */
  delay: number;
  waitUntil: WaitUntil;
  /** block ads and trackers on the network */
  hideAds: boolean;
  /** decline cookie consent banners and hide other overlays */
  hidePopups: boolean;
  size: CaptureSize;
  /** the capture's deadline in seconds; 0: the service's default */
  maxWait: number;
  /** prefer a dark colour scheme */
  dark: boolean;
  /** fail on certificate errors instead of ignoring them */
  strictSsl: boolean;
  /** cap in pixels on a full-page capture; 0: unlimited */
  maxHeight: number;
  /** sequential shots, 1 or more */
  shots: number;
  /** seconds between two shots */
  shotInterval: number;
  /** also save the rendered HTML */
  html: boolean;
  /** a `waitFor` or `waitForHidden` not met in time ends the record as `error` instead of capturing anyway */
  waitStrict: boolean;
  /** the record ends as `error` when the capture looks blank */
  failOnBlank: boolean;
  /** block chat and support widgets (AdGuard Widgets); absent in a spec stored before it: false */
  blockChats: boolean;
  /** block analytics scripts and tracking pixels (AdGuard Tracking Protection) */
  blockTrackers: boolean;
  /** block share buttons, like boxes and embedded posts (AdGuard Social media) */
  blockSocial: boolean;
  /** also save the page's readable content as Markdown (drivers/shared/page-markdown.ts) */
  markdown: boolean;
  /** what the Markdown converts (read only when `markdown`) */
  markdownMode: MarkdownMode;
  /** also describe the page: the record's `metadata` (drivers/shared/page-metadata.ts) */
  metadata: boolean;
  /** the stored image's format; a spec stored before the field existed has none (PNG) */
  imageFormat: ImageFormat;
  /** JPEG and WebP quality, 1–100 (PNG ignores it) */
  imageQuality: number;
}

/**
 * The CaptureSpec fields that are not one option as is: built from several options, the country or the
 * record (create-request.ts). The option table reads a record's values back from them (`fromSpec`).
 */
export interface BuiltSpecFields {
  /** the screenshot record id (also the queue's de-duplication id); 0 for one-off local captures */
  id: number;
  url: string;
  country: string;
  region: string;
  language: string;
  timezone: string;
  geo: { latitude: number; longitude: number } | null;
  device: DeviceEmulation;
  userAgent: string | null;
  /** CSS selector of the element to capture; falls back to the page when not found in time */
  target: string | null;
  /**
   * Readiness (drivers/shared/readiness.ts runs them after the steps, in this order): wait until an element
   * matching `waitFor` is visible, until nothing matching `waitForHidden` is; click each of `clicks` in
   * order, hover `hover`; hide every `hideSelectors` match and add the `css` style sheet. null and [] are
   * "not asked"; a spec stored before these fields existed has none of them (readinessOf reads it so).
   */
  waitFor: string | null;
  waitForHidden: string | null;
  clicks: string[];
  hover: string | null;
  hideSelectors: string[];
  css: string | null;
  /**
   * Conditions that end the record as `error` (cause condition_failed): the status of the page's document
   * matches one of `failOnStatus` (`404`, `4xx`), an element matches `failIfSelector`, nothing matches
   * `failUnlessSelector` (drivers/shared/conditions.ts).
   */
  failOnStatus: string[];
  failIfSelector: string | null;
  failUnlessSelector: string | null;
  /** resource types not loaded; [] (or absent, in a spec stored before it): none */
  blockResources: BlockableResource[];
  /** URL patterns (`*` any characters, the whole URL) not loaded; [] or absent: none */
  blockUrls: string[];
  cookies: Cookie[];
  headers: HttpHeader[];
  /** URL-encoded form body: when set, the first navigation is a POST with this body */
  postData: string | null;
  referer: string | null;
  /** script URLs run after load, in order */
  scripts: string[];
  scriptInline: string | null;
  steps: Step[];
  trackers: TrackerSpec[];
  pdf: PdfSpec | null;
  video: VideoSpec | null;
  /**
   * The document to render instead of loading `url` (source_html / source_markdown, beyond-v1.md part 3); `url`
   * is then `source:<kind>/<sha256 of text>`. The text travels with the job (an agent has no database) and is
   * the record's copy of the source (GET /screenshot/source reads it back). Absent or null: a web page.
   */
  source?: CaptureSource | null;
  /**
   * Set by the farm's country routing, not by the request: the proxy (http://host:port) this capture's
   * traffic goes through so the page sees the country's address. Absent or null: direct.
   */
  proxy?: string | null;
}

export const SOURCE_KINDS = ['html', 'markdown'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A document the request sent: its text as sent, and the URL its relative links resolve against. */
export interface CaptureSource {
  kind: SourceKind;
  text: string;
  baseUrl: string | null;
}

export interface CaptureSpec extends PlainSpecFields, BuiltSpecFields {}

/** One stored output a capture produced, before it reaches object storage. */
export interface CaptureOutput {
  /** one image per shot, in shot order, every one in `imageFormat` */
  images: Buffer[];
  imageFormat: ImageFormat;
  html: string | null;
  /** the page's readable content as Markdown (spec.markdown) */
  markdown: string | null;
  /** what the page says about itself, and the image's dominant colours (spec.metadata) */
  metadata: PageMetadata | null;
  pdf: Buffer | null;
  video: { data: Buffer; format: VideoFormat } | null;
  finalUrl: string;
  /** final URL at each shot, in shot order */
  finalUrls: string[];
  /** HTTP status of the final document; null when the page could not be reached */
  responseCode: number | null;
  links: string[];
  trackers: TrackerResult[];
  userAgent: string;
  /** what actually ran, e.g. `chromium 156.0.8078.73 (brave emulation)` */
  browserInfo: string;
  /** options the driver could not honour, said plainly; shown on the record */
  warnings: string[];
  /** the capture shows one colour, or nothing is visible on the page (drivers/shared/blank-check.ts) */
  blank: boolean;
  /**
   * The plain sentence of the request's condition the page failed (fail_on_status, fail_if_selector,
   * fail_unless_selector, fail_on_blank, a wait with wait_strict): the record ends `error`, cause
   * condition_failed. null when every condition held.
   */
  conditionFailed: string | null;
  /** requests not sent, per category (drivers/shared/block-lists/request-blocker.ts) */
  blocked: BlockedCounts;
  /** milliseconds spent in each phase, for the record's timings */
  timings: Record<string, number>;
}

/** An icon the page declares (`<link rel=icon|apple-touch-icon|…>`), its URL absolute. */
export interface PageIcon {
  url: string;
  sizes: string | null;
  type: string | null;
}

/** The record's `metadata` (beyond-v1.md part 5): what the page says about itself, as the browser rendered it. */
export interface PageMetadata {
  title: string | null;
  description: string | null;
  lang: string | null;
  /** `<link rel=canonical>`, absolute */
  canonical: string | null;
  /** og:* properties without the prefix (`og:image:width` is `image:width`); the first value of each */
  open_graph: Record<string, string>;
  /** twitter:* names without the prefix */
  twitter: Record<string, string>;
  icons: PageIcon[];
  theme_color: string | null;
  /** font families that render text on the page (the first available family of each text's stack) */
  fonts: string[];
  /** up to five dominant colours of the first image, `#rrggbb`, most frequent first */
  colors: string[];
  word_count: number;
  /** the main document's MIME type, as the browser took it */
  content_type: string | null;
}
