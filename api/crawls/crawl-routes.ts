import { z } from 'zod';
import { CRAWL_CREATE_PARAMS, CRAWL_ID_PARAMS, CRAWL_LIST_PARAMS } from './crawl-params.js';
import { CREATE_PARAMS } from '../options/create-params.js';
import { DEFAULT_PAGE_SIZE } from '../options/endpoint-params.js';
import { toScreenshotRecord } from '../screenshots/screenshot-record.js';
import { toCrawlRecord } from './crawl-record.js';
import { jsonBodyParams } from '../http/json-body.js';
import { callerOf } from '../http/state.js';
import { Crawl, CrawlInfo } from './crawl-shapes.js';
import { defineRoute, type ApiRoute } from '../http/route.js';

const tag = 'Crawls';

/** POST /crawl/create, GET /crawl/info, GET /crawl/list and POST /crawl/cancel. */
export const CRAWL_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'post',
    path: '/crawl/create',
    operationId: 'createCrawl',
    tag,
    credentials: 'account',
    summary: 'Crawl a domain: {url, domain, max_urls, ...screenshot options}',
    // The crawl's fields come in a JSON body (the same names are accepted in the query); the service reads them.
    body: { ...CREATE_PARAMS, ...CRAWL_CREATE_PARAMS },
    required: ['url', 'domain', 'max_urls'],
    validatedBy: 'handler',
    response: { data: Crawl, description: 'The crawl' },
    handler: async (ctx, deps) => toCrawlRecord(await deps.crawls.create(callerOf(ctx), jsonBodyParams(ctx))),
  }),

  defineRoute({
    method: 'get',
    path: '/crawl/info',
    operationId: 'getCrawl',
    tag,
    credentials: 'account',
    summary: 'One crawl, with its screenshots',
    query: CRAWL_ID_PARAMS,
    required: ['id'],
    response: { data: CrawlInfo, description: 'The crawl' },
    handler: async (ctx, deps, { id }) => {
      const { crawl, screenshots } = await deps.crawls.get(callerOf(ctx), id as number);
      return { ...toCrawlRecord(crawl), screenshots: screenshots.map((s) => toScreenshotRecord(s)) };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/crawl/list',
    operationId: 'listCrawls',
    tag,
    credentials: 'account',
    summary: 'Crawls, newest first',
    query: CRAWL_LIST_PARAMS,
    response: { data: z.array(Crawl), description: 'The crawls' },
    handler: async (ctx, deps, p) => (await deps.crawls.list(callerOf(ctx), p.limit ?? DEFAULT_PAGE_SIZE, p.offset ?? 0)).map((r) => toCrawlRecord(r)),
  }),

  defineRoute({
    method: 'post',
    path: '/crawl/cancel',
    operationId: 'cancelCrawl',
    tag,
    credentials: 'account',
    summary: 'Cancel a crawl (id in the query or a JSON body)',
    query: CRAWL_ID_PARAMS,
    body: CRAWL_ID_PARAMS,
    required: ['id'],
    response: { data: Crawl, description: 'The crawl, status cancelled' },
    handler: async (ctx, deps, { id }) => toCrawlRecord(await deps.crawls.cancel(callerOf(ctx), id as number)),
  }),
];
