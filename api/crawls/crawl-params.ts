import { z } from 'zod';
import { normaliseDomain } from './crawl-scope.js';
import { DEFAULT_PAGE_SIZE, idParam, MAX_PAGE_SIZE } from '../options/endpoint-params.js';
import { aka, custom, int } from '../options/param-kinds.js';
import { MAX_URL_LENGTH, normaliseTargetUrl } from '../options/target-url.js';

/** The spec's limit on the pages of one crawl. */
export const MAX_CRAWL_URLS = 1000;

const oneString = (raw: unknown): string | null => (Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0] : null);

/** The crawl's own parameters of POST /crawl/create; every other field is a screenshot option. */
export const CRAWL_CREATE_PARAMS = {
  url: custom(z.string().min(1).max(MAX_URL_LENGTH).describe('the first page of the crawl (http or https)'), false, (raw) => {
    const s = oneString(raw);
    if (s === null) return { ok: false, messages: ['must be one URL'] };
    const r = normaliseTargetUrl(s);
    return r.ok ? { ok: true, value: r.url } : { ok: false, messages: [r.message] };
  }),
  domain: custom(z.string().min(1).max(253).describe("host name whose pages (and subdomains' pages) are followed"), false, (raw) => {
    const s = oneString(raw);
    const domain = s === null ? null : normaliseDomain(s);
    return domain ? { ok: true, value: domain } : { ok: false, messages: ['must be a host name such as example.com (no scheme, port or path)'] };
  }),
  // One official client sends `maxUrls` in its JSON body.
  max_urls: aka(int(1, MAX_CRAWL_URLS, 'pages to capture at most (alias maxUrls)'), 'maxUrls'),
};

export const CRAWL_ID_PARAMS = { id: idParam };

export const CRAWL_LIST_PARAMS = {
  limit: int(1, MAX_PAGE_SIZE, `page size (default ${DEFAULT_PAGE_SIZE})`),
  offset: int(0, 1_000_000_000, 'records to skip'),
};
