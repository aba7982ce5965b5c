import { createHash } from 'node:crypto';
import type { CaptureSource, CaptureSpec, DeviceEmulation, Step, TrackerResult, TrackerSpec } from '../../core/capture-spec.js';
import type { Config } from '../../core/config/config.js';
import { countryDefaults, localeIn } from '../../core/countries.js';
import { findDevice } from './devices.js';
import { validationError, type FieldErrors } from '../../core/errors.js';
import type { Pricing } from '../../core/pricing.js';
import { CAPTURE_OPTIONS, CREATE_PARAM_NAMES, CREATE_PARAMS, DEFAULT_COUNTRY, MAX_RECORDS_PER_REQUEST } from './create-params.js';
import { optionsCost, plainOptionValues, recordValuesOf, specGroup, withDefaults, type OptionRecordFieldsOf, type WithDefaults } from './option-table.js';
import { parseCookieString, parseHeaderItem } from './http-fields.js';
import type { QueryTree } from './query-input.js';
import { collectParams, type ParamsOf } from './read-params.js';
import { targetsOf } from './create-targets.js';
import { MAX_STEPS, MAX_TRACKERS, readItems, SKIPPED_STEP, stepSchema, trackerSchema } from './steps-and-trackers.js';
import { viewportBudgetErrors } from './viewport-budget.js';

export type CreateParams = ParamsOf<typeof CREATE_PARAMS>;
/** The create options with the table's defaults filled in. */
type Options = WithDefaults<typeof CAPTURE_OPTIONS>;

/**
 * The fields of a screenshot record that a create call decides (everything but id, status, result
 * fields and timestamps): the options' values (the option table's, typed by their record schema; the
 * table says where each is stored) and the record's own. Names are the spec's field names.
 */
export type ScreenshotFields = OptionRecordFieldsOf<typeof CAPTURE_OPTIONS> & {
  cost: number;
  region: string;
  /** margins as CSS lengths, as stored (the create answer turns them into pixels) */
  pdf_margin: string;
  pdf_margin_top: string;
  pdf_margin_bottom: string;
  pdf_margin_left: string;
  pdf_margin_right: string;
  steps: Step[];
  trackers: TrackerSpec[] | TrackerResult[];
  /** what the request asked that was not done (an unknown parameter, a skipped step); the capture adds its own */
  warnings: string[];
};

/** One screenshot to create: the record's columns, the spec that travels to the farm, and its cache key. */
export interface ScreenshotDraft {
  fields: ScreenshotFields;
  spec: CaptureSpec;
  specHash: string;
}

export interface CreateRequest {
  drafts: ScreenshotDraft[];
  /** user-defined app ids to run after each screenshot finishes */
  apps: string[];
}

export interface CreateContext {
  pricing: Pricing;
  cacheDefaultSeconds: number;
  /** the pixel budget of one capture in device pixels (SHOTFARM_MAX_CAPTURE_MEGAPIXELS): a viewport above it is refused */
  maxCapturePixels: number;
}

/** What create reads of the configuration. */
export const createContextOf = (config: Pick<Config, 'pricing' | 'cacheDefaultSeconds' | 'farm'>): CreateContext => ({
  pricing: config.pricing,
  cacheDefaultSeconds: config.cacheDefaultSeconds,
  maxCapturePixels: config.farm.maxCapturePixels,
});

/**
 * Validates and normalises a GET /screenshot/create query into one draft per url × country.
 * Throws a 400 ApiError with `fields` naming every bad parameter at once.
 */
export function buildCreateRequest(query: QueryTree, ctx: CreateContext): CreateRequest {
  const fields: FieldErrors = {};
  const addError = (field: string, message: string): void => void (fields[field] ??= []).push(message);

  const p: CreateParams = collectParams(CREATE_PARAMS, query, fields, []);
  // A url list, or one source_html / source_markdown (its record's url is source:<kind>/<sha256>).
  const { urls, source } = targetsOf(p, fields, addError);

  const stepItems = readItems<Step | null>({ json: 'steps', brackets: 'step' }, query.steps, query.step, stepSchema, MAX_STEPS);
  if (!stepItems.ok) Object.assign(fields, stepItems.fields);
  const steps = stepItems.ok ? { ok: true as const, value: stepItems.value.filter((s): s is Step => s !== null) } : stepItems;
  const warnings = [...ignoredParamWarnings(query), ...(stepItems.ok ? skippedStepWarnings(stepItems.value) : [])];
  const trackers = readItems<TrackerSpec>({ json: 'trackers', brackets: 'tracker' }, query.trackers, query.tracker, trackerSchema, MAX_TRACKERS);
  if (!trackers.ok) Object.assign(fields, trackers.fields);

  const device = resolveDevice(p, addError);
  if (device) for (const [field, message] of Object.entries(viewportBudgetErrors(p, device, ctx.maxCapturePixels))) addError(field, message);
  const geoGiven = p.geo_latitude !== undefined || p.geo_longitude !== undefined;
  const geoEnable = p.geo_enable ?? geoGiven;
  if (geoEnable && (p.geo_latitude === undefined || p.geo_longitude === undefined)) {
    addError(p.geo_latitude === undefined ? 'geo_latitude' : 'geo_longitude', 'is required when geo_enable is on (give both geo_latitude and geo_longitude)');
  }

  const countries = p.country && p.country.length > 0 ? [...new Set(p.country)] : [DEFAULT_COUNTRY];
  if (urls.length * countries.length > MAX_RECORDS_PER_REQUEST) {
    addError('url', `url × country gives ${urls.length * countries.length} screenshots; at most ${MAX_RECORDS_PER_REQUEST} per request`);
  }
  if (Object.keys(fields).length > 0 || !steps.ok || !trackers.ok || !device) throw validationError(fields);

  const drafts = urls.flatMap((url) => countries.map((country) => draft(url, source, country, p, device, steps.value, trackers.value, geoEnable, ctx, warnings)));
  return { drafts, apps: [...new Set(p.apps ?? [])] };
}

/** A request naming more unknown parameters than this gets one warning for the rest (a record stays small). */
const MAX_NAMED_UNKNOWN = 10;

/**
 * Unknown parameters are ignored, as the spec's clients expect (they send extra ones), but the record
 * says so: a misspelt option should not pass unnoticed.
 */
function ignoredParamWarnings(input: QueryTree): string[] {
  const unknown = Object.keys(input).filter((name) => !CREATE_PARAM_NAMES.has(name));
  const shown = unknown.slice(0, MAX_NAMED_UNKNOWN).map((name) => `The parameter "${printable(name)}" is not known and was ignored.`);
  if (unknown.length > MAX_NAMED_UNKNOWN) shown.push(`${unknown.length - MAX_NAMED_UNKNOWN} more unknown parameters were ignored.`);
  return shown;
}

/**
 * A name as the record can hold it: it is the client's text, and Postgres' jsonb refuses NUL and lone
 * surrogates (a JSON body can carry both), so those and other control characters become `?`; at most 64
 * characters, cut between code points.
 */
function printable(name: string): string {
  return Array.from(name.replace(/[\x00-\x1f\x7f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '?'))
    .slice(0, 64)
    .join('');
}

/** A `screenshot` step (the original clients' documentation has one) is a no-op here: the record says so. */
function skippedStepWarnings(steps: (Step | null)[]): string[] {
  return steps.flatMap((s, i) => (s === null ? [`Step ${i + 1} (${SKIPPED_STEP}) was skipped: the screenshot is taken after the steps.`] : []));
}

/** A catalogue device wins over the device_* parameters and the viewport; otherwise they describe it. */
function resolveDevice(p: CreateParams, addError: (f: string, m: string) => void): (DeviceEmulation & { userAgent: string | null }) | null {
  if (p.device_name !== undefined && p.device_name !== '') {
    const d = findDevice(p.device_name);
    if (!d) {
      addError('device_name', `unknown device "${p.device_name.slice(0, 100)}"; GET /device/list gives the names`);
      return null;
    }
    return {
      name: d.device_name,
      width: d.screen_width,
      height: d.screen_height,
      scale: d.device_scale,
      mobile: d.device_mobile,
      touch: d.device_touch,
      landscape: d.device_landscape,
      userAgent: d.user_agent,
    };
  }
  const o = withDefaults(CAPTURE_OPTIONS, p);
  let width = o.screen_width;
  let height = o.screen_height;
  // Landscape means the long side is horizontal: turn a portrait viewport round.
  if (o.device_landscape && width < height) [width, height] = [height, width];
  return { name: null, width, height, scale: o.device_scale, mobile: o.device_mobile, touch: o.device_touch, landscape: o.device_landscape, userAgent: null };
}

/** An optional text as the spec holds it: null when not given or empty. */
const orNull = (value: string | undefined): string | null => (value !== undefined && value !== '' ? value : null);

function draft(
  url: string,
  source: CaptureSource | null,
  country: string,
  p: CreateParams,
  device: DeviceEmulation & { userAgent: string | null },
  steps: Step[],
  trackers: TrackerSpec[],
  geoEnable: boolean,
  ctx: CreateContext,
  warnings: string[],
): ScreenshotDraft {
  const place = countryDefaults(country);
  if (!place) throw new Error(`country ${country} passed validation but has no defaults`);
  // Every option's value, the default where not given (a PDF margin side: pdf_margin's).
  const o: Options = withDefaults(CAPTURE_OPTIONS, p);
  const cache = o.cache === true ? ctx.cacheDefaultSeconds : o.cache === false ? 0 : o.cache;
  const headers = (p.header ?? []).map((line) => {
    const parsed = parseHeaderItem(line);
    return parsed.ok ? (parsed.value[0] as { name: string; value: string }) : { name: '', value: '' };
  });
  const cookies = p.cookie !== undefined ? (parseCookieString(p.cookie) as { ok: true; value: { name: string; value: string }[] }).value : [];
  const geo = geoEnable ? { latitude: p.geo_latitude as number, longitude: p.geo_longitude as number } : null;

  // The table gives the options that are one CaptureSpec field as is (hide_ads, delay, shots...) and the
  // groups it can build (pdf, video: each option at its specPath). The rest is built here, each for a reason
  // the table cannot state: the device comes from the catalogue or the device_* options (resolveDevice), the
  // geo point is on when a point is given, cookies and headers are parsed, the language and time zone
  // default from each record's country, and an empty text is null.
  const spec: CaptureSpec = {
    ...plainOptionValues(CAPTURE_OPTIONS, p).spec,
    id: 0,
    url,
    country,
    region: place.region,
    language: p.language !== undefined ? localeIn(p.language, country) : place.language,
    timezone: p.timezone ?? place.timezone,
    geo,
    device: { name: device.name, width: device.width, height: device.height, scale: device.scale, mobile: device.mobile, touch: device.touch, landscape: device.landscape },
    userAgent: p.user_agent ?? device.userAgent,
    target: p.target !== undefined && p.target !== '' ? p.target : null,
    waitFor: orNull(p.wait_for),
    waitForHidden: orNull(p.wait_for_hidden),
    clicks: p.click ?? [],
    hover: orNull(p.hover),
    hideSelectors: p.hide_selector ?? [],
    css: orNull(p.css),
    failOnStatus: [...new Set(p.fail_on_status ?? [])],
    failIfSelector: orNull(p.fail_if_selector),
    failUnlessSelector: orNull(p.fail_unless_selector),
    blockResources: [...new Set(p.block_resources ?? [])],
    blockUrls: [...new Set(p.block_urls ?? [])],
    cookies,
    headers,
    postData: p.post_data !== undefined && p.post_data !== '' ? p.post_data : null,
    referer: p.referer ?? null,
    scripts: p.script ?? [],
    scriptInline: p.script_inline !== undefined && p.script_inline !== '' ? p.script_inline : null,
    steps,
    trackers,
    pdf: o.pdf ? specGroup(CAPTURE_OPTIONS, 'pdf', o) : null,
    video: o.video ? specGroup(CAPTURE_OPTIONS, 'video', o) : null,
    source,
  };

  // The record shows each option as the spec says it (the country's language, a catalogue device's
  // viewport), else as given or defaulted: the table says where each is read.
  // Cast for the margins only: their record schema is the answers' (a create answers pixels), stored they are CSS lengths.
  const fields = {
    ...recordValuesOf(CAPTURE_OPTIONS, o, spec),
    // `cache=true` is the configured period: the record shows its seconds.
    cache,
    cost: optionsCost(CAPTURE_OPTIONS, ctx.pricing, o),
    region: place.region,
    steps,
    trackers,
    warnings,
  } as ScreenshotFields;
  return { fields, spec, specHash: hashSpec(spec) };
}

/**
 * The order the spec's fields are hashed in: the order they had when the stored records' keys were taken
 * (fields added since follow, in the order they were built), so that a spec built another way hashes the same.
 */
const HASHED_ORDER = [
  'id',
  'url',
  'browser',
  'country',
  'region',
  'language',
  'timezone',
  'geo',
  'size',
  'maxHeight',
  'device',
  'userAgent',
  'target',
  'waitUntil',
  'delay',
  'maxWait',
  'shots',
  'shotInterval',
  'cookies',
  'headers',
  'postData',
  'referer',
  'scripts',
  'scriptInline',
  'steps',
  'trackers',
  'dark',
  'hidePopups',
  'hideAds',
  'strictSsl',
  'html',
  'pdf',
  'video',
];

/** The pdf group's keys in the order they were hashed in (specGroup builds the group in the table's order). */
const HASHED_PDF_ORDER = ['format', 'landscape', 'background', 'onePage', 'margin'];
const HASHED_MARGIN_ORDER = ['top', 'right', 'bottom', 'left'];

/** An object with these keys first, in this order, then its others. */
const inOrder = (o: Record<string, unknown>, keys: string[]): Record<string, unknown> =>
  Object.fromEntries([...keys.filter((k) => k in o), ...Object.keys(o).filter((k) => !keys.includes(k))].map((k) => [k, o[k]]));

/**
 * Fields added after records were stored whose empty value changes nothing the browser does: they are
 * hashed only when set, so a request that does not use them keeps the cache key it had before them.
 */
const HASHED_WHEN_SET = [
  'source',
  'waitFor',
  'waitForHidden',
  'waitStrict',
  'clicks',
  'hover',
  'hideSelectors',
  'css',
  'failOnStatus',
  'failIfSelector',
  'failUnlessSelector',
  'failOnBlank',
  'blockChats',
  'blockTrackers',
  'blockSocial',
  'blockResources',
  'blockUrls',
  'markdown',
  'metadata',
];
const isUnset = (value: unknown): boolean => value === null || value === undefined || value === false || (Array.isArray(value) && value.length === 0);

/** The cache key: every option that changes what the browser produces (the id excluded). */
export function hashSpec(spec: CaptureSpec): string {
  const fields: Record<string, unknown> = { ...spec, id: 0 };
  for (const key of HASHED_WHEN_SET) if (isUnset(fields[key])) delete fields[key];
  // markdown_mode has a default ('main') but changes nothing without markdown.
  if (!spec.markdown) delete fields.markdownMode;
  // A PNG (the default) keeps the key it had before the image format existed; quality changes no PNG.
  if (spec.imageFormat === 'png') {
    delete fields.imageFormat;
    delete fields.imageQuality;
  }
  if (spec.pdf) fields.pdf = inOrder({ ...spec.pdf, margin: inOrder(spec.pdf.margin, HASHED_MARGIN_ORDER) }, HASHED_PDF_ORDER);
  const ordered = Object.fromEntries([...HASHED_ORDER.filter((k) => k in fields), ...Object.keys(fields).filter((k) => !HASHED_ORDER.includes(k))].map((k) => [k, fields[k]]));
  return createHash('sha256').update(JSON.stringify(ordered)).digest('hex');
}
