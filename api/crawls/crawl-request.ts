import { ApiError, validationError, type FieldErrors } from '../../core/errors.js';
import { CREATE_PARAM_NAMES } from '../options/create-params.js';
import { buildCreateRequest, type CreateContext, type ScreenshotDraft } from '../options/create-request.js';
import { CRAWL_CREATE_PARAMS } from './crawl-params.js';
import { crawlKey, isInDomain } from './crawl-scope.js';
import type { QueryTree } from '../options/query-input.js';
import { collectParams, paramNames } from '../options/read-params.js';

/** The crawl's own fields under every name, and the credential: none of them is a screenshot option. */
const NOT_OPTIONS = new Set([...paramNames(CRAWL_CREATE_PARAMS), 'key']);

/**
 * The screenshot options a crawl keeps for its later pages: what the create rules read (aliases
 * included) and nothing else. Unknown fields are not stored (they are the client's arbitrary text);
 * the first page's record names them in its warnings.
 */
const isKeptOption = (name: string): boolean => CREATE_PARAM_NAMES.has(name) && !NOT_OPTIONS.has(name);

/** Stands in for a start URL that is itself invalid, so that the options are still checked and reported. */
const OPTIONS_PROBE_URL = 'https://example.com/';

export interface CrawlRequest {
  startUrl: string;
  domain: string;
  maxUrls: number;
  /** the screenshot options, as given, to build every later page with */
  options: QueryTree;
  /** the first page */
  draft: ScreenshotDraft;
  /** user-defined app ids to run after each page */
  apps: string[];
}

/** One page of a crawl: the create rules of GET /screenshot/create applied to the crawl's options. */
export function buildCrawlPage(options: QueryTree, url: string, ctx: CreateContext): { draft: ScreenshotDraft; apps: string[] } {
  const request = buildCreateRequest({ ...options, url: [url] }, ctx);
  // One page is one screenshot: more would be several countries, which the crawl request refuses.
  if (request.drafts.length !== 1) throw new Error(`a crawl page gave ${request.drafts.length} drafts`);
  return { draft: request.drafts[0] as ScreenshotDraft, apps: request.apps };
}

/**
 * Validates POST /crawl/create: the crawl's own fields and the screenshot options together, so one 400
 * names every bad field.
 */
export function buildCrawlRequest(input: QueryTree, ctx: CreateContext): CrawlRequest {
  const fields: FieldErrors = {};
  const addError = (field: string, message: string): void => void (fields[field] ??= []).push(message);
  const crawl = collectParams(CRAWL_CREATE_PARAMS, input, fields, ['url', 'domain', 'max_urls']);
  // The crawl keys pages without their fragment, the first one too.
  const start = crawl.url === undefined ? null : crawlKey(crawl.url);
  if (start && crawl.domain !== undefined && !isInDomain(start.host, crawl.domain)) {
    addError('url', `must be on the domain ${crawl.domain} or one of its subdomains`);
  }
  const given = Object.entries(input).filter(([name]) => !NOT_OPTIONS.has(name));
  const options: QueryTree = Object.fromEntries(given.filter(([name]) => isKeptOption(name)));

  let page: { draft: ScreenshotDraft; apps: string[] } | null = null;
  try {
    const request = buildCreateRequest({ ...Object.fromEntries(given), url: [start?.url ?? OPTIONS_PROBE_URL] }, ctx);
    // Several countries would make several screenshots of every page.
    if (request.drafts.length !== 1) addError('country', 'a crawl captures from one country');
    else page = { draft: request.drafts[0] as ScreenshotDraft, apps: request.apps };
  } catch (err) {
    if (!(err instanceof ApiError) || !err.extra.fields) throw err;
    for (const [field, messages] of Object.entries(err.extra.fields)) for (const m of messages) addError(field, m);
  }
  if (Object.keys(fields).length > 0 || !page || !start || crawl.domain === undefined || crawl.max_urls === undefined) {
    throw validationError(fields);
  }
  return { startUrl: start.url, domain: crawl.domain, maxUrls: crawl.max_urls, options, draft: page.draft, apps: page.apps };
}
