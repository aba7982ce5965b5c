import { z } from 'zod';
import {
  BLOCKABLE_RESOURCES,
  BROWSERS,
  CAPTURE_SIZES,
  IMAGE_FORMATS,
  MARKDOWN_MODES,
  PDF_FORMATS,
  VIDEO_FORMATS,
  WAIT_UNTIL,
  type BuiltSpecFields,
  type PlainSpecFields,
} from '../../core/capture-spec.js';
import { countryDefaults, isTimeZone } from '../../core/countries.js';
import { parseCookieString, parseHeaderItem } from './http-fields.js';
import { aka, bool, custom, int, listOf, longText, num, oneOf, text, toBool, toInt, type Param, type ParamAlias, type ReadResult } from './param-kinds.js';
import { paramsOf, type OptionTable, type SpecFieldsOf } from './option-table.js';
import { paramNames } from './read-params.js';
import { MAX_URL_LENGTH, normaliseTargetUrl } from './target-url.js';
import { selector, selectorList, statusCodeOrClass } from './selector-params.js';
import { sourceText } from './source-params.js';

/** At most this many URLs, countries and resulting records per create call (url × country). */
export const MAX_URLS_PER_REQUEST = 100;
export const MAX_COUNTRIES_PER_REQUEST = 20;
export const MAX_RECORDS_PER_REQUEST = 100;
/** 30 days: the longest cache period the spec allows anywhere. */
export const MAX_CACHE_SECONDS = 2_592_000;
/** Viewports above 10,000 px per side would cost gigabytes of pixels; no real screen is that big. */
const MAX_VIEWPORT = 10_000;
/** A full-page capture taller than this is cut: 100,000 px is already ~100 screens of content. */
const MAX_PAGE_HEIGHT = 100_000;
/** The whole job's deadline may be at most 5 minutes; beyond that a page is not going to load. */
export const MAX_WAIT_SECONDS = 300;
/** Clicks before a capture: a person opens a few tabs or menus, not a script's worth (use steps for that). */
const MAX_CLICKS = 20;
/** URL patterns of block_urls in one capture: a page's worth of third parties, as peers accept. */
const MAX_BLOCKED_URL_PATTERNS = 50;
/** A block_urls pattern: a URL, or part of one, with `*` wildcards; not only wildcards (that would block every request). */
const urlPattern = text(MAX_URL_LENGTH, 'URL pattern, `*` for any characters', { re: /[^*\s]/, says: 'a URL pattern with at least one character other than `*`' });
/** Selectors hidden in one capture: ad and widget lists of this size are what peers accept. */
const MAX_HIDDEN_SELECTORS = 50;

const urlItem = custom(z.string().min(1).max(MAX_URL_LENGTH).describe('http or https URL'), false, (raw) => {
  const s = Array.isArray(raw) && typeof raw[0] === 'string' ? raw[0] : '';
  const r = normaliseTargetUrl(s);
  return r.ok ? { ok: true, value: r.url } : { ok: false, messages: [r.message] };
});

const countryItem = custom(
  z
    .string()
    .regex(/^[a-z]{2}$/)
    .describe('ISO 3166-1 alpha-2 code, lowercase'),
  false,
  (raw) => {
    const s = Array.isArray(raw) && typeof raw[0] === 'string' ? raw[0] : '';
    if (!/^[a-z]{2}$/.test(s)) return { ok: false, messages: ['must be a two-letter lowercase country code such as us or fr'] };
    if (!countryDefaults(s)) return { ok: false, messages: [`"${s}" is not an ISO 3166-1 country code`] };
    return { ok: true, value: s };
  },
);

const headerParam = custom(z.array(z.string()).describe('each a JSON object string, or `Name: value` lines'), true, (raw): ReadResult<string[]> => {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) return { ok: false, messages: ['must be a list of values'] };
  const messages: string[] = [];
  const lines: string[] = [];
  (raw as string[]).forEach((item, i) => {
    if (item.length > 8192) return messages.push(`item ${i + 1} must be at most 8192 characters`);
    const r = parseHeaderItem(item);
    if (r.ok) lines.push(...r.value.map((h) => `${h.name}: ${h.value}`));
    else messages.push(`item ${i + 1} ${r.message}`);
    return undefined;
  });
  if (lines.length > 50) messages.push('must set at most 50 headers');
  return messages.length ? { ok: false, messages } : { ok: true, value: lines };
});

const cookieParam = custom(z.string().max(8192).describe('semicolon-separated name=value pairs'), false, (raw): ReadResult<string> => {
  const s = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0] : null;
  if (s === null) return { ok: false, messages: ['must be given once'] };
  if (s.length > 8192) return { ok: false, messages: ['must be at most 8192 characters'] };
  const r = parseCookieString(s);
  return r.ok ? { ok: true, value: s.trim() } : { ok: false, messages: [r.message] };
});

const httpUrl = (description: string): Param<string> =>
  custom(z.string().max(MAX_URL_LENGTH).describe(description), false, (raw) => {
    const s = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0] : null;
    if (s === null) return { ok: false, messages: ['must be given once'] };
    const r = normaliseTargetUrl(s);
    return r.ok ? { ok: true, value: r.url } : { ok: false, messages: [r.message] };
  });

/** `cache` in seconds, or a boolean (true = the configured default period, resolved later). */
const cacheParam = custom(z.union([z.number().int().min(0).max(MAX_CACHE_SECONDS), z.boolean()]).describe('seconds, or a boolean (true = the default cache period)'), false, (raw) => {
  const s = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0].trim() : null;
  if (s === null) return { ok: false, messages: ['must be given once'] };
  const n = toInt(s);
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_CACHE_SECONDS) return { ok: true, value: n };
  const b = toBool(s);
  if (typeof b === 'boolean') return { ok: true, value: b };
  return { ok: false, messages: [`must be seconds from 0 to ${MAX_CACHE_SECONDS}, or a boolean`] };
});

/** PDF margin: pixels (the create call's integer), or a CSS length with px, mm, cm or in. */
const margin = (description: string): Param<string> =>
  custom(z.union([z.number().int().min(0), z.string().regex(/^\d+(\.\d+)?(px|mm|cm|in)$/)]).describe(description) as unknown as z.ZodType<string>, false, (raw) => {
    const s = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0].trim().toLowerCase() : null;
    if (s === null) return { ok: false, messages: ['must be given once'] };
    const m = /^(\d{1,5}(?:\.\d{1,3})?)(px|mm|cm|in)?$/.exec(s);
    if (!m) return { ok: false, messages: ['must be pixels (a number) or a CSS length such as 10px, 5mm, 1cm or 0.5in'] };
    return { ok: true, value: `${m[1]}${m[2] ?? 'px'}` };
  });

const timezoneParam = custom(z.string().describe('IANA time zone name such as Europe/Paris'), false, (raw) => {
  const s = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0].trim() : null;
  if (s === null) return { ok: false, messages: ['must be given once'] };
  return isTimeZone(s) ? { ok: true, value: s } : { ok: false, messages: ['must be an IANA time zone name such as Europe/Paris'] };
});

/** `full_page=true` (the original clients' documentation) is `size=page`; `full_page=false` says nothing. */
const fullPage: ParamAlias = {
  name: 'full_page',
  schema: z.boolean().describe('true: the full page (size=page)'),
  convert(raw) {
    const r = bool('').read(raw);
    if (!r.ok) return r;
    return { ok: true, value: r.value ? ['page'] : undefined };
  },
};

const PX_PER_UNIT: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

/** `10mm` → 38: CSS pixels at 96 per inch, the unit the create response states margins in. */
export function cssLengthToPixels(length: string): number {
  const m = /^(\d+(?:\.\d+)?)(px|mm|cm|in)$/.exec(length);
  if (!m) return 0;
  return Math.round(Number(m[1]) * (PX_PER_UNIT[m[2] as string] ?? 1));
}

/** `create` answers margins as numbers (pixels), as the spec's create response does; every other answer as CSS lengths. */
const marginRecord = {
  schema: z.union([z.string(), z.number()]).describe('CSS length (px, mm, in, cm); pixels as a number in the create answer'),
  answer: (v: unknown, mode: 'create' | 'record'): unknown => (mode === 'create' ? cssLengthToPixels(String(v)) : v),
};

const shown = {};
const asText = { schema: z.string() };
/** An option shown as its stored spec says it; `schema` when the record's type is not the parameter's. */
const fromSpec = <S extends z.ZodType | undefined = undefined>(read: (spec: BuiltSpecFields) => unknown, schema?: S): { fromSpec: typeof read; schema: S } => ({ fromSpec: read, schema: schema as S });

/**
 * The option that turns a CaptureSpec group on: the group (its options at their `specPath`, specGroup)
 * is null while it is off, and it adds its price when on.
 */
const groupSwitch = (group: 'pdf' | 'video', description: string) => ({
  param: bool(description),
  default: false,
  specText: `\`${group}\` (null when off)`,
  cost: { pricing: group, when: 'when on', credits: (on: boolean, price: number) => (on ? price : 0) },
  record: fromSpec((s) => s[group] !== null),
});

export const DEFAULT_COUNTRY = 'us';

/**
 * The capture options: every plain parameter of GET /screenshot/create, as the spec's table says (plus
 * `priority` and `script_inline`), each declared once (option-table.ts says what an entry holds).
 * `steps`/`step` and `trackers`/`tracker` have readers of their own (steps-and-trackers.ts) because they
 * come in several encodings. An entry with `spec` is taken into CaptureSpec as is; the others are built
 * by create-request.ts (`specText` says where).
 */
export const CAPTURE_OPTIONS = {
  url: {
    param: listOf(urlItem, { max: MAX_URLS_PER_REQUEST, commas: false, description: 'URLs to capture (repeat the parameter for several)' }),
    defaultText: 'required, unless source_html or source_markdown is given',
    specText: '`url` (one record per URL)',
    record: { ...asText, column: 'list filters on it (url_contains)', fromSpec: (s) => s.url },
  },
  // Sources (beyond-v1.md part 3, api/options/source-params.ts): a document instead of a url; the record's url is
  // source:<kind>/<sha256>, and the text stays in the stored spec (GET /screenshot/source answers it).
  source_html: { param: sourceText('html'), defaultText: 'instead of url', specText: '`source` (kind html); `url` is `source:html/<sha256>`' },
  source_markdown: { param: sourceText('markdown'), defaultText: 'instead of url', specText: '`source` (kind markdown); `url` is `source:markdown/<sha256>`' },
  base_url: {
    param: httpUrl("with a source: the URL its relative links resolve against (a <base>); it must pass the egress guard like the source's subresources"),
    specPath: 'source.baseUrl',
    record: asText,
  },
  country: {
    param: listOf(countryItem, { max: MAX_COUNTRIES_PER_REQUEST, commas: true, description: 'countries to capture from; one record per url × country' }),
    defaultText: `\`${DEFAULT_COUNTRY}\``,
    specText: '`country`, `region` (one record per country)',
    record: { ...asText, column: 'list filters on it', fromSpec: (s) => s.country },
  },
  browser: { param: oneOf(BROWSERS, 'browser that captures'), default: 'chrome', spec: 'browser', record: { column: 'the Nodes page counts captures per browser; batch ZIP names use it' } },
  delay: { param: int(0, 60, 'seconds to wait after the page loaded'), default: 0, spec: 'delay', record: shown },
  // The stored image's format (beyond-v1.md part 4): JPEG straight from Chromium's viewport shot, else encoded once by the agent (drivers/shared/image-format.ts).
  format: { param: oneOf(IMAGE_FORMATS, 'format of the stored image: png (default), jpeg or webp', { jpg: 'jpeg', webmp: 'webp' }), default: 'png', spec: 'imageFormat', record: asText },
  quality: { param: int(1, 100, 'JPEG and WebP quality of the stored image (PNG ignores it)'), default: 80, spec: 'imageQuality', record: shown },
  wait_until: {
    param: oneOf(
      WAIT_UNTIL,
      'when the capture starts: `settled` (default: after load, once requests, fonts and layout are quiet, at most SHOTFARM_SETTLE_CAP_SECONDS), `networkidle` (no request for 500 ms after load), `load` or `domcontentloaded`; `delay` waits on top',
    ),
    default: 'settled',
    spec: 'waitUntil',
  },
  hide_ads: { param: bool('block ads and trackers on the network (brave always does)'), default: false, spec: 'hideAds', record: shown },
  hide_popups: { param: bool('decline cookie consent banners (autoconsent rules for the consent platforms) and hide other overlays'), default: false, spec: 'hidePopups', record: shown },
  // 1280 × 800 when the request says nothing else: a common laptop viewport.
  screen_width: { param: int(1, MAX_VIEWPORT, 'viewport width in pixels'), default: 1280, specPath: 'device.width', record: shown },
  screen_height: { param: int(1, MAX_VIEWPORT, 'viewport height in pixels'), default: 800, specPath: 'device.height', record: shown },
  size: {
    param: aka(oneOf(CAPTURE_SIZES, '`screen`: the viewport; `page`: the full page (alias full_page=true)'), fullPage),
    default: 'screen',
    spec: 'size',
    cost: { pricing: 'full_page', when: 'when `page`', credits: (v, price) => (v === 'page' ? price : 0) },
    record: shown,
  },
  // The record shows the cookie text as given; the spec holds it parsed (the spacing is not kept).
  cookie: { param: cookieParam, specText: '`cookies`', record: shown },
  header: { param: headerParam, specText: '`headers`', record: fromSpec((s) => s.headers.map((h) => `${h.name}: ${h.value}`).join('\n'), z.string()) },
  post_data: { param: longText(65_536, 'URL-encoded form data: the page is loaded with a POST'), specPath: 'postData', record: shown },
  referer: { param: httpUrl('Referer sent with the first request'), specPath: 'referer', record: shown },
  user_agent: {
    param: text(1024, 'User-Agent to use'),
    defaultText: "the device's, else the browser's own as a person's browser of that version sends it (no `Headless` token)",
    specPath: 'userAgent',
    record: { schema: z.string().optional(), column: 'the capture writes the User-Agent it used' },
  },
  max_wait: { param: int(0, MAX_WAIT_SECONDS, 'deadline in seconds: capture what is there when it passes; 0 = the service default'), default: 0, spec: 'maxWait', record: shown },
  script: {
    param: listOf(httpUrl('script URL'), { max: 10, commas: false, description: 'URLs of scripts run after load, in order' }),
    specText: '`scripts`',
    record: fromSpec((s) => s.scripts.join('\n'), z.string()),
  },
  script_inline: { param: longText(65_536, 'JavaScript run after load (after `script`)'), specPath: 'scriptInline', record: { shown: false } },
  dark: { param: bool('prefer a dark colour scheme'), default: false, spec: 'dark', record: shown },
  strict_ssl: { param: bool('fail on certificate errors instead of ignoring them'), default: false, spec: 'strictSsl', record: shown },
  cache: { param: cacheParam, default: 0, specText: 'not in the spec: the cache lookup', record: { schema: z.number().int() } },
  max_height: { param: int(0, MAX_PAGE_HEIGHT, 'cap in pixels on a full-page capture; 0 = unlimited'), default: 0, spec: 'maxHeight', record: shown },
  shots: {
    param: int(1, 10, 'number of sequential shots'),
    default: 1,
    spec: 'shots',
    cost: { pricing: 'extra_shot', when: 'per shot after the first', credits: (v, price) => Math.max(0, v - 1) * price },
    record: shown,
  },
  shot_interval: { param: int(0, 60, 'seconds between shots'), default: 1, spec: 'shotInterval', record: shown },
  tag: { param: listOf(text(64, 'tag'), { max: 20, commas: true, description: 'tags (repeat or comma-separate)' }), specText: 'not in the spec', record: { column: 'list filters on it' } },
  target: { param: text(1024, 'CSS selector of the element to capture; falls back to the page when not found'), specPath: 'target', record: asText },
  // Readiness (beyond-v1.md part 6), run in this order after the steps: waits, clicks and the hover, then hiding and the CSS.
  wait_for: {
    param: selector('CSS selector: capture once an element matches and is visible (at most max_wait, else 30 s; then captured anyway with a warning, unless wait_strict)'),
    specPath: 'waitFor',
    record: asText,
  },
  wait_for_hidden: {
    param: selector('CSS selector: capture once nothing matching is visible, such as a spinner or a skeleton (bounded as wait_for)'),
    specPath: 'waitForHidden',
    record: asText,
  },
  wait_strict: {
    param: bool('a wait_for or wait_for_hidden not met in time ends the record as `error` (cause condition_failed) instead of capturing anyway'),
    default: false,
    spec: 'waitStrict',
    record: shown,
  },
  click: { param: selectorList(MAX_CLICKS, 'CSS selectors clicked in order (the first visible match of each) before the capture'), specText: '`clicks`', record: fromSpec((s) => s.clicks ?? []) },
  hover: { param: selector('CSS selector of the element the mouse rests on at the capture'), specPath: 'hover', record: asText },
  hide_selector: {
    param: selectorList(MAX_HIDDEN_SELECTORS, 'CSS selectors of elements hidden (visibility: hidden) in the capture'),
    specText: '`hideSelectors`',
    record: fromSpec((s) => s.hideSelectors ?? []),
  },
  css: { param: longText(65_536, 'style sheet added before the capture, also on a page whose Content-Security-Policy forbids inline styles'), specPath: 'css', record: { shown: false } },
  // Conditions: a page that fails one ends as `error` (cause condition_failed), which costs nothing.
  fail_on_status: {
    param: listOf(statusCodeOrClass, { max: 20, commas: true, description: 'status codes or classes (404, 4xx, 5xx) of the page that end the record as `error`' }),
    specText: '`failOnStatus`',
    record: fromSpec((s) => s.failOnStatus ?? []),
  },
  fail_if_selector: { param: selector('CSS selector: the record ends as `error` when an element matches it at the capture'), specPath: 'failIfSelector', record: asText },
  fail_unless_selector: { param: selector('CSS selector: the record ends as `error` when nothing matches it at the capture'), specPath: 'failUnlessSelector', record: asText },
  fail_on_blank: { param: bool('the record ends as `error` when the capture is blank (one colour, or nothing visible on the page)'), default: false, spec: 'failOnBlank', record: shown },
  // Blocking by category from AdGuard's maintained lists (drivers/shared/block-lists), and by resource type or URL.
  block_chats: { param: bool("block chat widgets (AdGuard's Widgets list and a supplement): Intercom, Drift, Crisp, Zendesk, HubSpot, Tawk.to…"), default: false, spec: 'blockChats', record: shown },
  block_trackers: { param: bool("block analytics scripts and tracking pixels (AdGuard's Tracking Protection list)"), default: false, spec: 'blockTrackers', record: shown },
  block_social: { param: bool("block share buttons, like boxes and embedded posts (AdGuard's Social media list)"), default: false, spec: 'blockSocial', record: shown },
  block_resources: {
    param: listOf(oneOf(BLOCKABLE_RESOURCES, 'resource type'), { max: BLOCKABLE_RESOURCES.length, commas: true, description: 'resource types not loaded: image, media, font, stylesheet, script' }),
    specText: '`blockResources`',
    record: fromSpec((s) => s.blockResources ?? []),
  },
  block_urls: {
    param: listOf(urlPattern, {
      max: MAX_BLOCKED_URL_PATTERNS,
      commas: false,
      description: 'URL patterns not loaded, `*` for any characters, matched against the whole URL (repeat the parameter; a pattern may hold a comma)',
    }),
    specText: '`blockUrls`',
    record: fromSpec((s) => s.blockUrls ?? []),
  },
  apps: {
    param: listOf(text(100, 'user-defined app id', { re: /^[A-Za-z0-9_.:-]+$/, says: 'an app id of letters, digits, _ . : or -' }), {
      max: 10,
      commas: true,
      description: 'user-defined app IDs run after completion',
    }),
    specText: "not in the spec: the record's `apps`",
  },
  // Extraction (beyond-v1.md part 5): what the page says, beside how it looks.
  markdown: {
    param: bool("also save the page's readable content as Markdown (GET /screenshot/markdown)"),
    default: false,
    spec: 'markdown',
    cost: { pricing: 'markdown', when: 'when on', credits: (v, price) => (v ? price : 0) },
    record: shown,
  },
  markdown_mode: {
    param: oneOf(MARKDOWN_MODES, "what the Markdown converts: `main` (the page's main content, its headline kept) or `full` (the whole body)"),
    default: 'main',
    spec: 'markdownMode',
    record: asText,
  },
  metadata: {
    param: bool("also save what the page says about itself (title, description, OpenGraph, icons, fonts, colours…) as the record's `metadata`"),
    default: false,
    spec: 'metadata',
    cost: { pricing: 'metadata', when: 'when on', credits: (v, price) => (v ? price : 0) },
    // The record's `metadata` is the object itself (screenshot-record.ts), not the switch.
    record: { shown: false },
  },
  html: { param: bool('also save the rendered HTML'), default: false, spec: 'html', cost: { pricing: 'html', when: 'when on', credits: (v, price) => (v ? price : 0) }, record: shown },
  geo_enable: { param: bool('emulate geolocation'), defaultText: 'on when a latitude or longitude is given', specText: '`geo` (null when off)', record: fromSpec((s) => s.geo !== null) },
  geo_latitude: { param: num(-90, 90, 'latitude in decimal degrees'), specPath: 'geo.latitude', record: { schema: z.number() } },
  // The spec's option list also spells the longitude `geo_longitute`.
  geo_longitude: {
    param: aka(num(-180, 180, 'longitude in decimal degrees (alias geo_longitute)'), 'geo_longitute'),
    specPath: 'geo.longitude',
    record: { schema: z.number() },
  },
  language: {
    // A bare language (`lang=fr`, as the original clients send it) is written in each record's country: fr-CA for ca.
    param: aka(
      text(5, "language such as fr-FR, or fr (in the country's region: fr-CA for country ca); default: from the country; alias lang", {
        re: /^[a-z]{2}(-[A-Z]{2})?$/,
        says: 'a language such as en-US or en',
      }),
      'lang',
    ),
    defaultText: "the country's",
    specPath: 'language',
    record: asText,
  },
  timezone: { param: aka(timezoneParam, 'tz'), defaultText: "the country's", specPath: 'timezone', record: asText },
  device_name: {
    param: text(100, 'a device_name from GET /device/list; overrides the other device_* parameters and the viewport'),
    specPath: 'device.name',
    record: asText,
  },
  device_landscape: { param: bool('landscape orientation (without device_name)'), default: false, specPath: 'device.landscape', record: shown },
  device_mobile: { param: bool('mobile viewport (without device_name)'), default: false, specPath: 'device.mobile', record: { schema: z.boolean().optional() } },
  device_touch: { param: bool('touch events (without device_name)'), default: false, specPath: 'device.touch', record: shown },
  device_scale: { param: num(0.1, 5, 'device scale factor (without device_name)'), default: 1, specPath: 'device.scale', record: { schema: z.number() } },
  pdf: groupSwitch('pdf', 'also produce a PDF'),
  pdf_background: { param: bool('print background graphics'), default: false, specPath: 'pdf.background', record: shown },
  pdf_landscape: { param: bool('landscape paper'), default: false, specPath: 'pdf.landscape', record: shown },
  pdf_one_page: { param: bool('the whole page on one sheet'), default: false, specPath: 'pdf.onePage', record: shown },
  pdf_format: { param: oneOf(PDF_FORMATS, 'paper format'), default: 'a4', specPath: 'pdf.format', record: asText },
  pdf_margin: { param: margin('margin on every side: pixels or a CSS length'), default: '0px', specText: '`pdf.margin` (each side)', record: marginRecord },
  pdf_margin_top: { param: margin('top margin'), defaultFrom: 'pdf_margin', specPath: 'pdf.margin.top', record: marginRecord },
  pdf_margin_bottom: { param: margin('bottom margin'), defaultFrom: 'pdf_margin', specPath: 'pdf.margin.bottom', record: marginRecord },
  pdf_margin_left: { param: margin('left margin'), defaultFrom: 'pdf_margin', specPath: 'pdf.margin.left', record: marginRecord },
  pdf_margin_right: { param: margin('right margin'), defaultFrom: 'pdf_margin', specPath: 'pdf.margin.right', record: marginRecord },
  video: groupSwitch('video', 'also record a screencast'),
  video_format: { param: oneOf(VIDEO_FORMATS, 'video container/codec'), default: 'mp4', specPath: 'video.format', record: asText },
  video_quality: { param: int(0, 63, 'quality, lower is better'), default: 23, specPath: 'video.quality', record: shown },
  video_speed: { param: num(0.1, 5, 'playback speed multiplier'), default: 1, specPath: 'video.speed', record: shown },
  video_duration: {
    param: aka(int(0, 30, 'minimum recording seconds; 0 = no minimum (alias video_length)'), 'video_length'),
    default: 0,
    specPath: 'video.duration',
    record: shown,
  },
  video_fps: { param: int(1, 60, 'frames per second'), default: 25, specPath: 'video.fps', record: shown },
  video_colors: { param: int(2, 256, 'GIF palette size'), default: 256, specPath: 'video.colors', record: shown },
  video_scale: { param: num(0.1, 1, 'video scale relative to the viewport'), default: 1, specPath: 'video.scale', record: shown },
  priority: { param: int(0, 10, 'queue priority: higher starts first'), default: 0, specText: "not in the spec: the queue's priority", record: shown },
} as const satisfies OptionTable;

/** Whether two types accept the same values (each is assignable to the other). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * Compile-time check: the entries with `spec` fill exactly CaptureSpec's plain fields (PlainSpecFields,
 * core/capture-spec.ts), each with the field's type. An option given a `spec` the contract does not list, a
 * plain field no option fills, or a type that differs fails `tsc` here.
 */
type _SpecFieldsAreTheContracts = true extends SameType<SpecFieldsOf<typeof CAPTURE_OPTIONS>, PlainSpecFields> ? true : never;
export const SPEC_FIELDS_CHECKED: _SpecFieldsAreTheContracts = true;

/** The parameter table of create (validation and the OpenAPI parameters): the options' `param`. */
export const CREATE_PARAMS = paramsOf(CAPTURE_OPTIONS);

export type CreateParamName = keyof typeof CREATE_PARAMS;

/**
 * Parameters read by hand (steps and trackers) and the credential, listed so that the unknown-parameter
 * warning knows them. With the table's names and aliases (paramNames), they are every name create reads.
 */
export const STRUCTURED_CREATE_PARAMS = ['steps', 'step', 'trackers', 'tracker', 'key'] as const;

/** Every name create reads: the table's parameters and aliases, steps and trackers, the credential. */
export const CREATE_PARAM_NAMES: ReadonlySet<string> = new Set([...paramNames(CREATE_PARAMS), ...STRUCTURED_CREATE_PARAMS]);
