import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ApiError } from '../../core/errors.js';
import { extensionOf } from '../../core/storage/file-extension.js';
import { paramNames, readParams, type ParamsOf } from '../options/read-params.js';
import type { QueryTree } from '../options/query-input.js';
import type { RouteDeps } from '../http/route.js';
import { callerOf, type AppContext } from '../http/state.js';
import { findFile, readAll } from '../retrieval/file-access.js';
import { sendStoredContent } from '../retrieval/stored-content.js';
import { changesImage, renderThumbnail, storedEncoding } from '../retrieval/thumbnail-render.js';
import { toScreenshotRecord, type ScreenshotRow } from '../screenshots/screenshot-record.js';
import { renderCacheControl } from './render-cache-control.js';
import { ANSWER_TYPES, RENDER_FORMATS, type RenderFormat } from './render-formats.js';
import { DEFAULT_RENDER_TIMEOUT_SECONDS, RENDER_PARAMS, RENDER_RESIZE_PARAMS } from './render-params.js';

type RenderInput = ParamsOf<typeof RENDER_PARAMS>;
const RENDER_NAMES: ReadonlySet<string> = new Set(paramNames(RENDER_PARAMS));

/** 422: the page could not be captured; the record's plain sentence, and why (beyond-v1.md part 1). */
const captureFailed = (row: ScreenshotRow): ApiError =>
  new ApiError(422, 'CAPTURE_FAILED', row.error || 'The page could not be captured', { details: { screenshot_id: row.id, error_cause: row.error_cause } });
/** 504: not finished within `timeout`; the capture goes on, the record is read later with info. */
const renderTimeout = (id: number, seconds: number): ApiError =>
  new ApiError(504, 'RENDER_TIMEOUT', `The capture did not finish within ${seconds} s; it goes on: read it later with /screenshot/info?id=${id}`, { details: { screenshot_id: id } });

/**
 * Splits a render's parameters: render's own (format, quality, timeout, resizing), and create's query for
 * the one record, with the capture's format and the outputs the answer needs (render-formats.ts).
 */
export function renderRequest(params: QueryTree): { input: RenderInput; format: RenderFormat; create: QueryTree } {
  const own = Object.create(null) as QueryTree;
  const create = Object.create(null) as QueryTree;
  for (const [name, value] of Object.entries(params)) {
    if (RENDER_NAMES.has(name)) own[name] = value;
    else create[name] = value;
  }
  const input = readParams(RENDER_PARAMS, own);
  const format: RenderFormat = RENDER_FORMATS[input.format ?? 'png'];
  // The stored image is the capture's format (create's `format` and `quality`); avif and the outputs keep a PNG.
  create.format = [format.capture];
  if (input.quality !== undefined && format.capture !== 'png') create.quality = [String(input.quality)];
  for (const [option, value] of Object.entries(format.outputs)) create[option] = [value];
  return { input, format, create };
}

/** The bytes a finished render answers, with their type and file extension. */
async function answerBytes(deps: RouteDeps, companyId: number, row: ScreenshotRow, format: RenderFormat, input: RenderInput): Promise<{ body: Buffer; type: string; extension: string }> {
  if (format.answer === 'json') {
    const record: Record<string, unknown> = toScreenshotRecord(row);
    // beyond-v1.md part 1: json is the record "with metadata and markdown when asked": the Markdown's text
    // takes the place of the option's `true` (metadata is the record's own object already).
    if (record.markdown === true) record.markdown = (await readAll(deps.objects, (await findFile(deps.db, companyId, row.id, 'markdown', null)).storage_key)).toString('utf8');
    return { body: Buffer.from(JSON.stringify({ success: true, data: record })), type: ANSWER_TYPES.json, extension: 'json' };
  }
  if (format.answer !== 'image') {
    const file = await findFile(deps.db, companyId, row.id, format.answer, null);
    return { body: await readAll(deps.objects, file.storage_key), type: ANSWER_TYPES[format.answer], extension: extensionOf(file.content_type, file.storage_key) };
  }
  const file = await findFile(deps.db, companyId, row.id, 'image', 1);
  const stored = await readAll(deps.objects, file.storage_key);
  const resize = Object.fromEntries(Object.keys(RENDER_RESIZE_PARAMS).map((k) => [k, input[k as keyof RenderInput]]));
  const wanted = format.encode ?? format.capture;
  const options = { ...resize, format: wanted, quality: format.encode ? input.quality : undefined };
  if (!changesImage(options, storedEncoding(file.content_type))) return { body: stored, type: file.content_type, extension: extensionOf(file.content_type, file.storage_key) };
  const image = await renderThumbnail(stored, { ...options, quality: input.quality });
  return { body: image.data, type: `image/${image.format}`, extension: image.format === 'jpeg' ? 'jpg' : image.format };
}

/**
 * GET|POST /screenshot/render: one record made through create (cost, cache, apps, warnings), waited for
 * without polling, then its bytes: 200 with an ETag (the bytes' hash), 304 when If-None-Match has it,
 * 422 when the page could not be captured, 504 past `timeout`.
 */
export async function render(ctx: AppContext, deps: RouteDeps, params: QueryTree): Promise<void> {
  const started = performance.now();
  const caller = callerOf(ctx);
  const { input, format, create } = renderRequest(params);
  const timeout = input.timeout ?? DEFAULT_RENDER_TIMEOUT_SECONDS;
  let row = await deps.screenshots.createOne(caller, create);
  if (row.status === 'processing') {
    const gone = new AbortController();
    ctx.req.once('close', () => gone.abort());
    const id = row.id;
    // No polling: the record's ending wakes this request, in whichever replica it was recorded (ScreenshotEvents).
    await deps.events.untilEnded(id, timeout * 1000 - (performance.now() - started), gone.signal, async () => (await deps.screenshots.status(caller, id)) === 'processing');
    row = await deps.screenshots.get(caller, row.id);
  }
  if (row.status === 'processing') throw renderTimeout(row.id, timeout);
  if (row.status === 'error') throw captureFailed(row);

  const { body, type, extension } = await answerBytes(deps, caller.companyId, row, format, input);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  ctx.set('ETag', etag);
  ctx.set('X-Screenshot-Id', String(row.id));
  ctx.set('Cache-Control', renderCacheControl(ctx, Number(row.cache)));
  // If-None-Match may list several tags, weak ones too (W/"…"): the bytes are the same either way.
  const notModified = ctx
    .get('If-None-Match')
    .split(',')
    .some((tag) => tag.trim().replace(/^W\//, '') === etag);
  ctx.set('X-Render-Ms', String(Math.round(performance.now() - started)));
  if (notModified) {
    ctx.status = 304;
    return;
  }
  sendStoredContent(ctx, { type, body, length: body.length, disposition: `inline; filename="screenshot-${row.id}.${extension}"` });
}
