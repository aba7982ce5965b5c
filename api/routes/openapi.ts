import Router from '@koa/router';
import { z } from 'zod';
import { CREATE_PARAMS } from '../../core/request/create-params.js';
import {
  APP_ID_PARAMS, APP_LIST_PARAMS, BATCH_ID_PARAMS, BATCH_LIST_PARAMS, FILE_PARAMS, HTML_PARAMS, SCREENSHOT_DELETE_PARAMS, SCREENSHOT_INFO_PARAMS,
  SCREENSHOT_LIST_PARAMS, SCREENSHOT_SEARCH_PARAMS, THUMBNAIL_PARAMS,
} from '../../core/request/endpoint-params.js';
import type { ParamTable } from '../../core/request/read-params.js';
import { CRAWL_CREATE_PARAMS, CRAWL_ID_PARAMS, CRAWL_LIST_PARAMS } from '../../core/request/crawl-params.js';
import { stepSchema, trackerSchema } from '../../core/request/steps-and-trackers.js';
import type { AppState } from '../http/state.js';
import { USER_OPERATIONS } from '../auth/user-operations.js';
import { BILLING_OPERATIONS } from '../billing/billing-operations.js';
import { MONITOR_OPERATIONS } from '../monitors/monitor-operations.js';

/** One operation of the document; `public` ones take no credential (signup, login, the email flows). */
export interface Operation { method: 'get' | 'post'; path: string; summary: string; params?: ParamTable; required?: string[]; extra?: object[]; public?: boolean }

/** The operations and the parameter tables that validate them: the document is generated from these. */
const OPERATIONS: Operation[] = [
  {
    method: 'get', path: '/screenshot/create', summary: 'Create screenshot(s): one record per url × country', params: CREATE_PARAMS, required: ['url'],
    extra: [
      { name: 'steps', in: 'query', description: 'JSON array of automation steps (or step[i][field] bracket notation)', content: { 'application/json': { schema: { type: 'array', items: z.toJSONSchema(stepSchema, { io: 'input' }) } } } },
      { name: 'trackers', in: 'query', description: 'JSON array of trackers (or tracker[i][field] bracket notation; not both)', content: { 'application/json': { schema: { type: 'array', items: z.toJSONSchema(trackerSchema, { io: 'input' }) } } } },
    ],
  },
  { method: 'get', path: '/screenshot/info', summary: 'One screenshot record, with has_html/has_pdf/has_video', params: SCREENSHOT_INFO_PARAMS, required: ['id'] },
  { method: 'get', path: '/screenshot/list', summary: 'Screenshot records, newest first', params: SCREENSHOT_LIST_PARAMS },
  { method: 'get', path: '/screenshot/search', summary: 'Screenshot records whose url contains the text', params: SCREENSHOT_SEARCH_PARAMS, required: ['url'] },
  { method: 'get', path: '/screenshot/delete', summary: 'Delete a record or part of it', params: SCREENSHOT_DELETE_PARAMS, required: ['id'] },
  { method: 'get', path: '/screenshot/thumbnail', summary: 'An image of a stored screenshot', params: THUMBNAIL_PARAMS, required: ['id'] },
  { method: 'get', path: '/screenshot/html', summary: 'The rendered HTML: a text/html download, or inert text/plain with view=text', params: HTML_PARAMS, required: ['id'] },
  { method: 'get', path: '/screenshot/pdf', summary: 'The PDF', params: FILE_PARAMS, required: ['id'] },
  { method: 'get', path: '/screenshot/video', summary: 'The screencast video', params: FILE_PARAMS, required: ['id'] },
  { method: 'get', path: '/account/info', summary: 'Balance and usage of the caller\'s account' },
  { method: 'get', path: '/device/list', summary: 'Device emulation profiles' },
  { method: 'get', path: '/app/types', summary: 'Installed app plugins: {type, name, description, uploads, settings_schema (JSON Schema)}' },
  { method: 'get', path: '/app/list', summary: 'App configurations, newest first (secrets masked)', params: APP_LIST_PARAMS },
  { method: 'get', path: '/app/info', summary: 'One app configuration (secrets masked)', params: APP_ID_PARAMS, required: ['id'] },
  { method: 'post', path: '/app/create', summary: 'Create an app configuration: JSON body {app_id, type, name, settings} (settings per the type\'s settings_schema)' },
  { method: 'post', path: '/app/update', summary: 'Update an app configuration: JSON body {app_id?, name?, settings?}; secrets left out or sent as ******** are kept', params: APP_ID_PARAMS, required: ['id'] },
  { method: 'post', path: '/app/delete', summary: 'Delete an app configuration and its runs', params: APP_ID_PARAMS, required: ['id'] },
  { method: 'get', path: '/batch/list', summary: 'Batches, newest first', params: BATCH_LIST_PARAMS },
  { method: 'post', path: '/batch/cancel', summary: 'Cancel a batch (id in the query or a JSON body)', params: BATCH_ID_PARAMS, required: ['id'] },
  { method: 'post', path: '/batch/retry', summary: 'Capture again the screenshots of an ended batch that ended in error (charged when they finish); the ZIP then holds the new images in their place. 409 while processing', params: BATCH_ID_PARAMS, required: ['id'] },
  {
    // The crawl's fields come in a JSON body; the same names are accepted in the query.
    method: 'post', path: '/crawl/create', summary: 'Crawl a domain: JSON body {url, domain, max_urls, ...screenshot options}',
    params: { ...CREATE_PARAMS, ...CRAWL_CREATE_PARAMS }, required: ['url', 'domain', 'max_urls'],
  },
  { method: 'get', path: '/crawl/info', summary: 'One crawl, with its screenshots', params: CRAWL_ID_PARAMS, required: ['id'] },
  { method: 'get', path: '/crawl/list', summary: 'Crawls, newest first', params: CRAWL_LIST_PARAMS },
  { method: 'post', path: '/crawl/cancel', summary: 'Cancel a crawl (id in the query or a JSON body)', params: CRAWL_ID_PARAMS, required: ['id'] },
  ...USER_OPERATIONS,
  ...BILLING_OPERATIONS,
  ...MONITOR_OPERATIONS,
];

const errorSchema = {
  type: 'object', required: ['success', 'error', 'code', 'details'],
  properties: {
    success: { const: false }, error: { type: 'string' }, code: { type: 'string' },
    details: { type: 'object', properties: { request_id: { type: 'string' } } },
    fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: '400 only: field → messages' },
    retry_after: { type: 'integer', description: '429 only: seconds to wait' },
    status: { const: 'error', description: '403 only' },
  },
};

/** Builds the OpenAPI 3.1 document from the same parameter tables that validate requests. */
export function buildOpenApi(publicUrl: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of OPERATIONS) {
    const parameters = Object.entries(op.params ?? {}).flatMap(([name, param]) => [{
      name,
      in: 'query',
      required: op.required?.includes(name) ?? false,
      description: param.schema.description,
      ...(param.list ? { style: 'form', explode: true } : {}),
      schema: z.toJSONSchema(param.schema, { unrepresentable: 'any' }),
    }, ...(param.aliases ?? []).map((alias) => ({
      // The spellings of the original service's clients: not both with the parameter.
      name: alias.name,
      in: 'query',
      required: false,
      description: `alias of ${name}${alias.schema?.description ? `: ${alias.schema.description}` : ''}`,
      schema: z.toJSONSchema(alias.schema ?? param.schema, { unrepresentable: 'any' }),
    }))]);
    paths[op.path] = {
      ...paths[op.path],
      [op.method]: {
        summary: op.summary,
        ...(op.public ? { security: [] } : {}),
        parameters: [...parameters, ...(op.extra ?? [])],
        responses: {
          200: { description: 'Success: {success: true, data}' },
          ...Object.fromEntries(['400', '401', '403', '404', '429', '500', '503'].map((s) => [s, { description: 'Error envelope', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }])),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'shotfarm screenshot API', version: '1.1.0' },
    servers: [{ url: `${publicUrl}/api/v1` }],
    security: [{ queryKey: [] }, { headerKey: [] }, { bearer: [] }],
    components: {
      securitySchemes: {
        queryKey: { type: 'apiKey', in: 'query', name: 'key' },
        headerKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}

/** GET /api/v1/openapi.json (unauthenticated). */
export function openApiRoutes(publicUrl: string): Router<AppState> {
  const router = new Router<AppState>();
  const document = buildOpenApi(publicUrl);
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.body = document;
  });
  return router;
}
