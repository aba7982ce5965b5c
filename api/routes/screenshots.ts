import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import Router from '@koa/router';
import type { ClientCompat } from '../../core/config/config.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../../core/db/connect.js';
import { DEFAULT_PAGE_SIZE, FILE_PARAMS, HTML_PARAMS, SCREENSHOT_DELETE_PARAMS, SCREENSHOT_INFO_PARAMS, SCREENSHOT_LIST_PARAMS, SCREENSHOT_SEARCH_PARAMS, THUMBNAIL_PARAMS } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import { toScreenshotRecord } from '../../core/screenshot-record.js';
import { queryOf } from '../http/query.js';
import { callerOf, type AppContext, type AppState } from '../http/state.js';
import type { ScreenshotEvents } from '../farm/screenshot-events.js';
import { attachment } from '../retrieval/content-disposition.js';
import { findFile, readAll } from '../retrieval/file-access.js';
import { sendStoredContent } from '../retrieval/stored-content.js';
import { changesImage, renderThumbnail } from '../retrieval/thumbnail-render.js';
import type { ScreenshotService } from '../screenshots/screenshot-service.js';
import { createAnswerData } from './create-answer.js';

/** GET /screenshot/*: create, info, list, search, delete and thumbnail. */
export interface ScreenshotRouteDeps { service: ScreenshotService; db: Db; objects: ObjectStore; events: ScreenshotEvents; clientCompat: ClientCompat }

export function screenshotRoutes(deps: ScreenshotRouteDeps): Router<AppState> {
  const { service } = deps;
  const router = new Router<AppState>({ prefix: '/screenshot' });

  router.get('/create', async (ctx) => {
    const rows = await service.create(callerOf(ctx), queryOf(ctx));
    ctx.body = { success: true, data: createAnswerData(rows.map((r) => toScreenshotRecord(r, 'create')), deps.clientCompat) };
  });

  router.get('/info', async (ctx) => {
    const { id, wait } = readParams(SCREENSHOT_INFO_PARAMS, queryOf(ctx), ['id']);
    const caller = callerOf(ctx);
    // Beyond the spec: `wait` holds the answer until the record leaves processing, at most `wait` seconds.
    // The look before waiting reads the status only; the record is read once, when it is answered.
    if (wait && (await service.status(caller, id as number)) === 'processing') {
      const gone = new AbortController();
      ctx.req.once('close', () => gone.abort());
      await deps.events.waitFor(id as number, wait * 1000, gone.signal);
    }
    const row = await service.get(caller, id as number);
    const kinds = await service.outputKinds(caller, row.id);
    ctx.body = { success: true, data: { ...toScreenshotRecord(row), has_html: kinds.has('html'), has_pdf: kinds.has('pdf'), has_video: kinds.has('video') } };
  });

  router.get('/list', async (ctx) => {
    const p = readParams(SCREENSHOT_LIST_PARAMS, queryOf(ctx));
    const rows = await service.list(callerOf(ctx), { status: p.status, country: p.country, tag: p.tag, limit: p.limit ?? DEFAULT_PAGE_SIZE, offset: p.offset ?? 0 });
    ctx.body = { success: true, data: rows.map((r) => toScreenshotRecord(r)) };
  });

  router.get('/search', async (ctx) => {
    const p = readParams(SCREENSHOT_SEARCH_PARAMS, queryOf(ctx), ['url']);
    const rows = await service.list(callerOf(ctx), { status: p.status, country: p.country, tag: p.tag, urlContains: p.url, limit: p.limit ?? DEFAULT_PAGE_SIZE, offset: p.offset ?? 0 });
    ctx.body = { success: true, data: rows.map((r) => toScreenshotRecord(r)) };
  });

  router.get('/delete', async (ctx) => {
    const p = readParams(SCREENSHOT_DELETE_PARAMS, queryOf(ctx), ['id']);
    const scope = p.data ?? 'all';
    await service.delete(callerOf(ctx), p.id as number, scope);
    ctx.body = { success: true, data: { id: p.id, deleted: scope } };
  });

  router.get('/thumbnail', async (ctx) => {
    const { id, shot, filename, ...options } = readParams(THUMBNAIL_PARAMS, queryOf(ctx), ['id']);
    const file = await findFile(deps.db, callerOf(ctx).companyId, id as number, 'image', shot ?? 1);
    const etag = `"${createHash('sha256').update(JSON.stringify([file.storage_key, file.size_bytes, options])).digest('base64url').slice(0, 27)}"`;
    // A finished screenshot never changes, so a client may keep it; `private` because it needs a key.
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.set('ETag', etag);
    const disposition = filename ? attachment(filename) : undefined;
    if (ctx.get('If-None-Match') === etag) {
      ctx.status = 304;
      return;
    }
    if (!changesImage(options)) {
      sendStoredContent(ctx, { type: file.content_type, length: file.size_bytes, body: await deps.objects.get(file.storage_key), disposition });
      return;
    }
    const thumb = await renderThumbnail(await readAll(deps.objects, file.storage_key), options);
    sendStoredContent(ctx, { type: `image/${thumb.format}`, body: thumb.data, disposition });
  });

  /** A screenshot's HTML, PDF or video: as stored, or as another (inert) type, shown or downloaded. */
  async function sendOutput(ctx: AppContext, kind: 'html' | 'pdf' | 'video', how: { download: boolean; type?: string }): Promise<void> {
    const { id } = readParams(FILE_PARAMS, queryOf(ctx), ['id']);
    const file = await findFile(deps.db, callerOf(ctx).companyId, id as number, kind, null);
    ctx.set('Cache-Control', 'private, max-age=86400');
    sendStoredContent(ctx, {
      type: how.type ?? file.content_type,
      length: file.size_bytes,
      body: await deps.objects.get(file.storage_key),
      disposition: how.download ? attachment(`screenshot-${id}${extname(file.storage_key)}`) : undefined,
    });
  }

  // The HTML is the captured site's own markup: a download by default (text/html, as the spec types it),
  // or with view=text shown in the browser as plain text, which no browser runs.
  router.get('/html', async (ctx) => {
    const { view } = readParams(HTML_PARAMS, queryOf(ctx), ['id']);
    await sendOutput(ctx, 'html', view === 'text' ? { download: false, type: 'text/plain; charset=utf-8' } : { download: true });
  });
  // PDFs show in the browser's viewer; videos are downloads: a sandboxed video document does not play in
  // Chromium (stored-content.ts).
  router.get('/pdf', (ctx) => sendOutput(ctx, 'pdf', { download: false }));
  router.get('/video', (ctx) => sendOutput(ctx, 'video', { download: true }));

  return router;
}
