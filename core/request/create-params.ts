import { z } from 'zod';
import { BROWSERS, PDF_FORMATS, VIDEO_FORMATS, WAIT_UNTIL } from '../capture-spec.js';
import { countryDefaults, isTimeZone } from '../countries.js';
import { parseCookieString, parseHeaderItem } from './http-fields.js';
import { aka, bool, custom, int, listOf, longText, num, oneOf, text, toBool, toInt, type Param, type ParamAlias, type ReadResult } from './param-kinds.js';
import { paramNames } from './read-params.js';
import { MAX_URL_LENGTH, normaliseTargetUrl } from './target-url.js';

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
const MAX_WAIT_SECONDS = 300;

const urlItem = custom(z.string().min(1).max(MAX_URL_LENGTH).describe('http or https URL'), false, (raw) => {
  const s = Array.isArray(raw) && typeof raw[0] === 'string' ? raw[0] : '';
  const r = normaliseTargetUrl(s);
  return r.ok ? { ok: true, value: r.url } : { ok: false, messages: [r.message] };
});

const countryItem = custom(z.string().regex(/^[a-z]{2}$/).describe('ISO 3166-1 alpha-2 code, lowercase'), false, (raw) => {
  const s = Array.isArray(raw) && typeof raw[0] === 'string' ? raw[0] : '';
  if (!/^[a-z]{2}$/.test(s)) return { ok: false, messages: ['must be a two-letter lowercase country code such as us or fr'] };
  if (!countryDefaults(s)) return { ok: false, messages: [`"${s}" is not an ISO 3166-1 country code`] };
  return { ok: true, value: s };
});

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

const httpUrl = (description: string): Param<string> => custom(z.string().max(MAX_URL_LENGTH).describe(description), false, (raw) => {
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
const margin = (description: string): Param<string> => custom(z.union([z.number().int().min(0), z.string().regex(/^\d+(\.\d+)?(px|mm|cm|in)$/)]).describe(description) as unknown as z.ZodType<string>, false, (raw) => {
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

/**
 * Every plain parameter of GET /screenshot/create, as the spec's table says (plus `priority` and
 * `script_inline`). `steps`/`step` and `trackers`/`tracker` have readers of their own
 * (steps-and-trackers.ts) because they come in several encodings.
 */
export const CREATE_PARAMS = {
  url: listOf(urlItem, { max: MAX_URLS_PER_REQUEST, commas: false, description: 'URLs to capture (repeat the parameter for several)' }),
  country: listOf(countryItem, { max: MAX_COUNTRIES_PER_REQUEST, commas: true, description: 'countries to capture from; one record per url × country' }),
  browser: oneOf(BROWSERS, 'browser that captures'),
  delay: int(0, 60, 'seconds to wait after the page loaded'),
  wait_until: oneOf(WAIT_UNTIL, 'when the capture starts: `settled` (default: after load, once requests, fonts and layout are quiet, at most SHOTFARM_SETTLE_CAP_SECONDS), `networkidle` (no request for 500 ms after load), `load` or `domcontentloaded`; `delay` waits on top'),
  hide_ads: bool('block ads and trackers on the network (brave always does)'),
  hide_popups: bool('decline cookie consent banners (autoconsent rules for the consent platforms) and hide other overlays'),
  screen_width: int(1, MAX_VIEWPORT, 'viewport width in pixels'),
  screen_height: int(1, MAX_VIEWPORT, 'viewport height in pixels'),
  size: aka(oneOf(['screen', 'page'] as const, '`screen`: the viewport; `page`: the full page (alias full_page=true)'), fullPage),
  cookie: cookieParam,
  header: headerParam,
  post_data: longText(65_536, 'URL-encoded form data: the page is loaded with a POST'),
  referer: httpUrl('Referer sent with the first request'),
  user_agent: text(1024, 'User-Agent to use'),
  max_wait: int(0, MAX_WAIT_SECONDS, 'deadline in seconds: capture what is there when it passes; 0 = the service default'),
  script: listOf(httpUrl('script URL'), { max: 10, commas: false, description: 'URLs of scripts run after load, in order' }),
  script_inline: longText(65_536, 'JavaScript run after load (after `script`)'),
  dark: bool('prefer a dark colour scheme'),
  strict_ssl: bool('fail on certificate errors instead of ignoring them'),
  cache: cacheParam,
  max_height: int(0, MAX_PAGE_HEIGHT, 'cap in pixels on a full-page capture; 0 = unlimited'),
  shots: int(1, 10, 'number of sequential shots'),
  shot_interval: int(0, 60, 'seconds between shots'),
  tag: listOf(text(64, 'tag'), { max: 20, commas: true, description: 'tags (repeat or comma-separate)' }),
  target: text(1024, 'CSS selector of the element to capture; falls back to the page when not found'),
  apps: listOf(text(100, 'user-defined app id', { re: /^[A-Za-z0-9_.:-]+$/, says: 'an app id of letters, digits, _ . : or -' }), { max: 10, commas: true, description: 'user-defined app IDs run after completion' }),
  html: bool('also save the rendered HTML'),
  geo_enable: bool('emulate geolocation'),
  geo_latitude: num(-90, 90, 'latitude in decimal degrees'),
  // The spec's option list also spells the longitude `geo_longitute`.
  geo_longitude: aka(num(-180, 180, 'longitude in decimal degrees (alias geo_longitute)'), 'geo_longitute'),
  language: aka(text(5, 'language such as fr-FR (default: from the country; alias lang)', { re: /^[a-z]{2}-[A-Z]{2}$/, says: 'a language such as en-US' }), 'lang'),
  timezone: aka(timezoneParam, 'tz'),
  device_name: text(100, 'a device_name from GET /device/list; overrides the other device_* parameters and the viewport'),
  device_landscape: bool('landscape orientation (without device_name)'),
  device_mobile: bool('mobile viewport (without device_name)'),
  device_touch: bool('touch events (without device_name)'),
  device_scale: num(0.1, 5, 'device scale factor (without device_name)'),
  pdf: bool('also produce a PDF'),
  pdf_background: bool('print background graphics'),
  pdf_landscape: bool('landscape paper'),
  pdf_one_page: bool('the whole page on one sheet'),
  pdf_format: oneOf(PDF_FORMATS, 'paper format'),
  pdf_margin: margin('margin on every side: pixels or a CSS length'),
  pdf_margin_top: margin('top margin'),
  pdf_margin_bottom: margin('bottom margin'),
  pdf_margin_left: margin('left margin'),
  pdf_margin_right: margin('right margin'),
  video: bool('also record a screencast'),
  video_format: oneOf(VIDEO_FORMATS, 'video container/codec'),
  video_quality: int(0, 63, 'quality, lower is better'),
  video_speed: num(0.1, 5, 'playback speed multiplier'),
  video_duration: aka(int(0, 30, 'minimum recording seconds; 0 = no minimum (alias video_length)'), 'video_length'),
  video_fps: int(1, 60, 'frames per second'),
  video_colors: int(2, 256, 'GIF palette size'),
  video_scale: num(0.1, 1, 'video scale relative to the viewport'),
  priority: int(0, 10, 'queue priority: higher starts first'),
} as const;

export type CreateParamName = keyof typeof CREATE_PARAMS;

/**
 * Parameters read by hand (steps and trackers) and the credential, listed so that the unknown-parameter
 * warning knows them. With the table's names and aliases (paramNames), they are every name create reads.
 */
export const STRUCTURED_CREATE_PARAMS = ['steps', 'step', 'trackers', 'tracker', 'key'] as const;

/** Every name create reads: the table's parameters and aliases, steps and trackers, the credential. */
export const CREATE_PARAM_NAMES: ReadonlySet<string> = new Set([...paramNames(CREATE_PARAMS), ...STRUCTURED_CREATE_PARAMS]);
