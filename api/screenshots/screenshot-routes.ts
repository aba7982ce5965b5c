import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { z } from 'zod';
import { CREATE_PARAMS } from '../options/create-params.js';
import {
  DEFAULT_PAGE_SIZE,
  FILE_PARAMS,
  HTML_PARAMS,
  SCREENSHOT_DELETE_PARAMS,
  SCREENSHOT_INFO_PARAMS,
  SCREENSHOT_LIST_PARAMS,
  SCREENSHOT_SEARCH_PARAMS,
  THUMBNAIL_PARAMS,
} from '../options/endpoint-params.js';
import { notFound } from '../../core/errors.js';
import { readParams } from '../options/read-params.js';
import { stepSchema, trackerSchema } from '../options/steps-and-trackers.js';
import { toScreenshotRecord } from './screenshot-record.js';
import type { RecordWithOutputKinds } from './screenshot-store.js';
import { queryOf } from '../http/query.js';
import { bodyWithinLimits, queryWithinLimits, sourceBodyParser } from '../http/source-limits.js';
import { callerOf, type AppContext } from '../http/state.js';
import { attachment } from '../retrieval/content-disposition.js';
import { findFile, readAll } from '../retrieval/file-access.js';
import { sendStoredContent } from '../retrieval/stored-content.js';
import { changesImage, renderThumbnail, storedEncoding } from '../retrieval/thumbnail-render.js';
import { createAnswerData } from '../http/create-answer.js';
import { createAnswer } from '../http/common-shapes.js';
import { Screenshot, ScreenshotInfo } from './screenshot-shapes.js';
import { defineRoute, type ApiRoute, type RouteDeps } from '../http/route.js';

const tag = 'Screenshots';

/** steps and trackers come as one JSON array in the query (or in bracket notation): their readers are their own. */
const jsonArray = (description: string, items: z.ZodType): Record<string, unknown> => ({
  description,
  content: { 'application/json': { schema: { type: 'array', items: z.toJSONSchema(items, { io: 'input' }) } } },
});

/** A screenshot's HTML, PDF or video: as stored, or as another (inert) type, shown or downloaded. */
async function sendOutput(ctx: AppContext, deps: RouteDeps, id: number, kind: 'html' | 'markdown' | 'pdf' | 'video', how: { download: boolean; type?: string }): Promise<void> {
  const file = await findFile(deps.db, callerOf(ctx).companyId, id, kind, null);
  ctx.set('Cache-Control', 'private, max-age=86400');
  sendStoredContent(ctx, {
    type: how.type ?? file.content_type,
    length: file.size_bytes,
    body: await deps.objects.get(file.storage_key),
    disposition: how.download ? attachment(`screenshot-${id}${extname(file.storage_key)}`) : undefined,
  });
}

/** /screenshot/*: create, info, list, search, delete, and the stored outputs (image, HTML, PDF, video). */
export const SCREENSHOT_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/screenshot/create',
    operationId: 'createScreenshots',
    tag,
    credentials: 'account',
    summary: 'Create screenshot(s): one record per url × country',
    description: 'Exactly one of `url`, `source_html` and `source_markdown`. A source longer than SHOTFARM_SOURCE_QUERY_MAX_BYTES is a 413: send it with POST.',
    query: CREATE_PARAMS,
    extraQuery: {
      steps: jsonArray('JSON array of automation steps (or step[i][field] bracket notation)', stepSchema),
      trackers: jsonArray('JSON array of trackers (or tracker[i][field] bracket notation; not both)', trackerSchema),
    },
    // The service reads every option itself (steps and trackers in their several encodings, unknown names warned).
    validatedBy: 'handler',
    response: { data: createAnswer(Screenshot), description: 'The new records, status processing' },
    handler: async (ctx, deps) => {
      const rows = await deps.screenshots.create(callerOf(ctx), queryWithinLimits(ctx, deps.config.sources));
      return createAnswerData(
        rows.map((r) => toScreenshotRecord(r, 'create')),
        deps.config.clientCompat,
      );
    },
  }),

  // The same create with its options in a JSON or form body: for sources longer than a query string takes.
  defineRoute({
    method: 'post',
    path: '/screenshot/create',
    operationId: 'createScreenshotsFromBody',
    tag,
    credentials: 'account',
    summary: 'Create screenshot(s) with the options in a JSON or form body (for long sources)',
    description:
      'The options of GET /screenshot/create as a JSON object or an application/x-www-form-urlencoded form (fields in the query are read too; the body wins). A source longer than SHOTFARM_SOURCE_BODY_MAX_BYTES is a 413.',
    body: CREATE_PARAMS,
    // A JSON array, or its JSON text (as the query takes it).
    extraBody: {
      steps: { anyOf: [{ type: 'array', items: z.toJSONSchema(stepSchema, { io: 'input' }) }, { type: 'string' }], description: 'automation steps: a JSON array, or its JSON text' },
      trackers: { anyOf: [{ type: 'array', items: z.toJSONSchema(trackerSchema, { io: 'input' }) }, { type: 'string' }], description: 'trackers: a JSON array, or its JSON text' },
    },
    upload: { parser: (deps) => sourceBodyParser(deps.config.sources), mediaTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    validatedBy: 'handler',
    response: { data: createAnswer(Screenshot), description: 'The new records, status processing' },
    handler: async (ctx, deps) => {
      const rows = await deps.screenshots.create(callerOf(ctx), bodyWithinLimits(ctx, deps.config.sources));
      return createAnswerData(
        rows.map((r) => toScreenshotRecord(r, 'create')),
        deps.config.clientCompat,
      );
    },
  }),

  defineRoute({
    method: 'get',
    path: '/screenshot/info',
    operationId: 'getScreenshot',
    tag,
    credentials: 'account',
    summary: 'One screenshot record, with has_html/has_pdf/has_video',
    query: SCREENSHOT_INFO_PARAMS,
    required: ['id'],
    response: { data: ScreenshotInfo, description: 'The record' },
    handler: async (ctx, deps, { id, wait }) => {
      const caller = callerOf(ctx);
      const read = (): Promise<RecordWithOutputKinds> => deps.screenshots.withOutputKinds(caller, id as number);
      // Beyond the spec: `wait` holds the answer until the record leaves processing, at most `wait` seconds.
      // The look before waiting reads the whole answer (one statement): a record already ended is answered
      // from it, one still processing is read once more when it ends.
      const seen: { answer?: RecordWithOutputKinds } = {};
      if (wait) {
        const gone = new AbortController();
        ctx.req.once('close', () => gone.abort());
        await deps.events.untilEnded(id as number, wait * 1000, gone.signal, async () => (seen.answer = await read()).row.status === 'processing');
      }
      const { row, kinds } = seen.answer && seen.answer.row.status !== 'processing' ? seen.answer : await read();
      return { ...toScreenshotRecord(row), has_html: kinds.has('html'), has_markdown: kinds.has('markdown'), has_pdf: kinds.has('pdf'), has_video: kinds.has('video') };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/screenshot/list',
    operationId: 'listScreenshots',
    tag,
    credentials: 'account',
    summary: 'Screenshot records, newest first',
    query: SCREENSHOT_LIST_PARAMS,
    response: { data: z.array(Screenshot), description: 'The records' },
    handler: async (ctx, deps, p) => {
      const rows = await deps.screenshots.list(callerOf(ctx), { status: p.status, country: p.country, tag: p.tag, limit: p.limit ?? DEFAULT_PAGE_SIZE, offset: p.offset ?? 0 });
      return rows.map((r) => toScreenshotRecord(r));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/screenshot/search',
    operationId: 'searchScreenshots',
    tag,
    credentials: 'account',
    summary: 'Screenshot records whose url contains the text',
    query: SCREENSHOT_SEARCH_PARAMS,
    required: ['url'],
    response: { data: z.array(Screenshot), description: 'The records' },
    handler: async (ctx, deps, p) => {
      const rows = await deps.screenshots.list(callerOf(ctx), { status: p.status, country: p.country, tag: p.tag, urlContains: p.url, limit: p.limit ?? DEFAULT_PAGE_SIZE, offset: p.offset ?? 0 });
      return rows.map((r) => toScreenshotRecord(r));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/screenshot/delete',
    operationId: 'deleteScreenshot',
    tag,
    credentials: 'account',
    summary: 'Delete a record or part of it',
    query: SCREENSHOT_DELETE_PARAMS,
    required: ['id'],
    response: { data: z.looseObject({ id: z.number().int(), deleted: SCREENSHOT_DELETE_PARAMS.data.schema }), description: 'What was deleted' },
    handler: async (ctx, deps, p) => {
      const scope = p.data ?? 'all';
      await deps.screenshots.delete(callerOf(ctx), p.id as number, scope);
      return { id: p.id, deleted: scope };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/screenshot/thumbnail',
    operationId: 'getScreenshotThumbnail',
    tag,
    credentials: 'account',
    summary: 'An image of a stored screenshot',
    description: "With `token` (a webhook's signed image_url) it answers the stored image without a credential; thumbnail options need the credential.",
    query: THUMBNAIL_PARAMS,
    required: ['id'],
    response: { content: ['image/png', 'image/jpeg', 'image/webp'], description: 'The image (304 when If-None-Match matches its ETag)' },
    signedLink: async (ctx, deps) => {
      const token = new URLSearchParams(ctx.querystring).get('token') as string;
      const { id } = readParams(FILE_PARAMS, queryOf(ctx), ['id']);
      // A wrong or expired token is indistinguishable from a screenshot that does not exist.
      if (!deps.imageLinks.allows(id as number, token)) throw notFound('Screenshot');
      await deps.imageLinks.stream(ctx, null, id as number);
    },
    handler: async (ctx, deps, { id, shot, filename, ...options }) => {
      const file = await findFile(deps.db, callerOf(ctx).companyId, id as number, 'image', shot ?? 1);
      const etag = `"${createHash('sha256')
        .update(JSON.stringify([file.storage_key, file.size_bytes, options]))
        .digest('base64url')
        .slice(0, 27)}"`;
      // A finished screenshot never changes, so a client may keep it; `private` because it needs a key.
      ctx.set('Cache-Control', 'private, max-age=86400');
      ctx.set('ETag', etag);
      const disposition = filename ? attachment(filename) : undefined;
      if (ctx.get('If-None-Match') === etag) {
        ctx.status = 304;
        return;
      }
      // Without a format, a thumbnail keeps the stored image's (png, jpeg or webp: the capture's `format`).
      const stored = storedEncoding(file.content_type);
      if (!changesImage(options, stored)) {
        sendStoredContent(ctx, { type: file.content_type, length: file.size_bytes, body: await deps.objects.get(file.storage_key), disposition });
        return;
      }
      const thumb = await renderThumbnail(await readAll(deps.objects, file.storage_key), { ...options, format: options.format ?? stored });
      sendStoredContent(ctx, { type: `image/${thumb.format}`, body: thumb.data, disposition });
    },
  }),

  // The HTML is the captured site's own markup: a download by default (text/html, as the spec types it),
  // or with view=text shown in the browser as plain text, which no browser runs.
  defineRoute({
    method: 'get',
    path: '/screenshot/html',
    operationId: 'getScreenshotHtml',
    tag,
    credentials: 'account',
    summary: 'The rendered HTML: a text/html download, or inert text/plain with view=text',
    query: HTML_PARAMS,
    required: ['id'],
    response: { content: ['text/html', 'text/plain'], description: 'The HTML' },
    handler: (ctx, deps, { id, view }) => sendOutput(ctx, deps, id as number, 'html', view === 'text' ? { download: false, type: 'text/plain; charset=utf-8' } : { download: true }),
  }),
  // Markdown is text no browser runs: shown as it is stored (text/markdown; charset=utf-8).
  defineRoute({
    method: 'get',
    path: '/screenshot/markdown',
    operationId: 'getScreenshotMarkdown',
    tag,
    credentials: 'account',
    summary: "The page's readable content as Markdown (markdown=1)",
    query: FILE_PARAMS,
    required: ['id'],
    response: { content: ['text/markdown'], description: 'The Markdown' },
    handler: (ctx, deps, { id }) => sendOutput(ctx, deps, id as number, 'markdown', { download: false }),
  }),
  // PDFs show in the browser's viewer; videos are downloads: a sandboxed video document does not play in
  // Chromium (stored-content.ts).
  // A record's source as it was sent (beyond-v1.md part 3). Like /screenshot/html it is a download: the
  // service's origin never runs the document.
  defineRoute({
    method: 'get',
    path: '/screenshot/source',
    operationId: 'getScreenshotSource',
    tag,
    credentials: 'account',
    summary: 'The source_html or source_markdown a record rendered, as sent',
    query: FILE_PARAMS,
    required: ['id'],
    response: { content: ['text/html', 'text/markdown'], description: 'The source, text/html or text/markdown in UTF-8' },
    handler: async (ctx, deps, { id }) => {
      const source = await deps.screenshots.source(callerOf(ctx), id as number);
      ctx.set('Cache-Control', 'private, max-age=86400');
      sendStoredContent(ctx, {
        type: `${source.kind === 'html' ? 'text/html' : 'text/markdown'}; charset=utf-8`,
        body: Buffer.from(source.text, 'utf8'),
        disposition: attachment(`screenshot-${id}-source.${source.kind === 'html' ? 'html' : 'md'}`),
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/screenshot/pdf',
    operationId: 'getScreenshotPdf',
    tag,
    credentials: 'account',
    summary: 'The PDF',
    query: FILE_PARAMS,
    required: ['id'],
    response: { content: ['application/pdf'], description: 'The PDF' },
    handler: (ctx, deps, { id }) => sendOutput(ctx, deps, id as number, 'pdf', { download: false }),
  }),
  defineRoute({
    method: 'get',
    path: '/screenshot/video',
    operationId: 'getScreenshotVideo',
    tag,
    credentials: 'account',
    summary: 'The screencast video',
    query: FILE_PARAMS,
    required: ['id'],
    response: { content: ['video/mp4', 'video/webm', 'image/gif'], description: 'The video, by video_format' },
    handler: (ctx, deps, { id }) => sendOutput(ctx, deps, id as number, 'video', { download: true }),
  }),
];
