import type { Readable } from 'node:stream';
import { Client, GraphError, HTTPMessageHandler, ResponseType, type Context, type Middleware } from '@microsoft/microsoft-graph-client';
import { AppRunError } from '../contract.js';
import { abortedError, graphErrorBody, type ConflictBehavior } from './onedrive-errors.js';

/**
 * Uploads to a OneDrive / SharePoint drive through Microsoft Graph with the official client:
 *  - small files: one `PUT <drive>/root:/<path>:/content?@microsoft.graph.conflictBehavior=…`;
 *  - large files: `POST <drive>/root:/<path>:/createUploadSession`, then the bytes in order as ranged PUTs
 *    to the session's uploadUrl, each a multiple of 320 KiB except the last, as Graph requires.
 *
 * The client's URL is `baseUrl` + `defaultVersion` + path, joined with single slashes: the configured
 * Graph URL already ends in its version (`https://graph.microsoft.com/v1.0`), so it is the baseUrl and the
 * version is empty. The client's default middleware chain is not used: its AuthenticationHandler adds the
 * token only to https URLs on Microsoft's hosts (or `customHosts`), so a configured endpoint on http
 * (a local proxy, the tests' fake) would be called without one, and its RetryHandler would sleep and retry
 * inside the run when the app runner already retries with backoff. The chain here is: Bearer token for
 * the configured Graph origin, then fetch.
 */

/** Graph: a simple upload takes up to 4 MB; bigger files need an upload session. */
export const SIMPLE_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Upload session byte ranges must be multiples of 320 KiB (except the last). */
export const SESSION_CHUNK_UNIT = 320 * 1024;
/** 10 × 320 KiB: about 3 MiB per request, well under Graph's 60 MiB maximum. */
export const DEFAULT_SESSION_CHUNK_BYTES = 10 * SESSION_CHUNK_UNIT;
export const MAX_SESSION_CHUNK_BYTES = 60 * 1024 * 1024;

/** Whose drive: the signed-in user's (delegated only), a drive by id, or a user's OneDrive. */
export type DriveTarget = { kind: 'me' } | { kind: 'drive'; id: string } | { kind: 'user'; id: string };

/** The fields of a DriveItem the app reports. */
export interface DriveItem {
  id: string;
  name: string;
  size: number;
  webUrl: string;
}

/** A failed exchange with Graph or an upload session, before it is judged (see onedrive-errors.ts). */
export class GraphCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly graphMessage: string,
    options: { cause?: unknown } = {},
  ) {
    super(`Graph ${status} ${code} ${graphMessage}`.trim(), options);
    this.name = 'GraphCallError';
  }
}

export function driveRoot(target: DriveTarget): string {
  switch (target.kind) {
    case 'me':
      return '/me/drive';
    case 'drive':
      return `/drives/${encodeURIComponent(target.id)}`;
    case 'user':
      return `/users/${encodeURIComponent(target.id)}/drive`;
  }
}

/** `<drive>/root:/<path>:` with every segment percent-encoded (names may hold `#`, `%`, spaces…). */
export function driveItemByPath(target: DriveTarget, path: string): string {
  const encoded = path
    .split('/')
    .filter((s) => s !== '')
    .map(encodeURIComponent)
    .join('/');
  return `${driveRoot(target)}/root:/${encoded}:`;
}

/** Adds `Authorization: Bearer …` to requests for the configured Graph origin (and to nothing else). */
class BearerTokenMiddleware implements Middleware {
  private next: Middleware | undefined;
  constructor(
    private readonly graphOrigin: string,
    private readonly token: () => string,
  ) {}

  async execute(context: Context): Promise<void> {
    const url = typeof context.request === 'string' ? context.request : context.request.url;
    const options = context.options ?? {};
    const headers = new Headers(options.headers);
    if (new URL(url).origin === this.graphOrigin) headers.set('Authorization', `Bearer ${this.token()}`);
    else headers.delete('Authorization');
    context.options = { ...options, headers };
    if (!this.next) throw new Error('BearerTokenMiddleware must be followed by a handler');
    await this.next.execute(context);
  }

  setNext(next: Middleware): void {
    this.next = next;
  }
}

export interface GraphUploaderOptions {
  /** `endpoints.microsoftGraphUrl`, e.g. `https://graph.microsoft.com/v1.0`. */
  graphUrl: string;
  /** The access token to send (read for each request, so a renewed token is picked up). */
  token: () => string;
  target: DriveTarget;
  conflict: ConflictBehavior;
  signal: AbortSignal;
  /** Upload session range size; a multiple of SESSION_CHUNK_UNIT. */
  chunkBytes?: number;
}

export class GraphUploader {
  private readonly client: Client;
  private readonly chunkBytes: number;

  constructor(private readonly options: GraphUploaderOptions) {
    const graphUrl = options.graphUrl.replace(/\/+$/, '');
    this.client = Client.initWithMiddleware({
      baseUrl: graphUrl,
      defaultVersion: '',
      middleware: [new BearerTokenMiddleware(new URL(graphUrl).origin, options.token), new HTTPMessageHandler()],
    });
    this.chunkBytes = options.chunkBytes ?? DEFAULT_SESSION_CHUNK_BYTES;
    if (this.chunkBytes <= 0 || this.chunkBytes % SESSION_CHUNK_UNIT !== 0 || this.chunkBytes > MAX_SESSION_CHUNK_BYTES) {
      throw new RangeError(`chunkBytes must be a multiple of ${SESSION_CHUNK_UNIT} up to ${MAX_SESSION_CHUNK_BYTES}`);
    }
  }

  /** `PUT …/content`: the whole file in one request (files under SIMPLE_UPLOAD_MAX_BYTES). */
  async simpleUpload(path: string, body: Buffer, contentType: string): Promise<DriveItem> {
    const answer: unknown = await this.call(() =>
      this.client
        .api(`${driveItemByPath(this.options.target, path)}/content`)
        .query({ '@microsoft.graph.conflictBehavior': this.options.conflict })
        .header('Content-Type', contentType)
        .options({ signal: this.options.signal })
        .responseType(ResponseType.JSON)
        .put(body),
    );
    return driveItemOf(answer);
  }

  /** An upload session fed from `stream`, which must hold exactly `size` bytes. */
  async sessionUpload(path: string, stream: Readable, size: number): Promise<DriveItem> {
    const { signal } = this.options;
    try {
      const session: unknown = await this.call(() =>
        this.client
          .api(`${driveItemByPath(this.options.target, path)}/createUploadSession`)
          .options({ signal })
          .responseType(ResponseType.JSON)
          .post({ item: { '@microsoft.graph.conflictBehavior': this.options.conflict } }),
      );
      const uploadUrl = (session as { uploadUrl?: unknown } | null)?.uploadUrl;
      if (typeof uploadUrl !== 'string' || !/^https?:\/\//i.test(uploadUrl)) {
        throw new AppRunError('OneDrive: the upload session has no usable uploadUrl', { retryable: true });
      }
      try {
        return await this.sendRanges(uploadUrl, stream, size);
      } catch (error) {
        cancelSession(uploadUrl);
        throw error;
      }
    } finally {
      stream.destroy();
    }
  }

  /** PUTs the ranges in order. The uploadUrl is pre-authenticated: Graph says to send no Authorization. */
  private async sendRanges(uploadUrl: string, stream: Readable, size: number): Promise<DriveItem> {
    const { signal } = this.options;
    let offset = 0;
    for await (const chunk of fixedChunks(stream, this.chunkBytes)) {
      if (offset + chunk.length > size) throw new AppRunError(`OneDrive: the stored file is longer than its recorded size of ${size} bytes`, { retryable: true });
      const end = offset + chunk.length - 1;
      let response: Response;
      try {
        // A view of the chunk's memory (Node's buffers live on plain ArrayBuffers), typed as fetch wants it.
        const body = new Uint8Array(chunk.buffer as ArrayBuffer, chunk.byteOffset, chunk.length);
        response = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Range': `bytes ${offset}-${end}/${size}` }, body, signal });
      } catch (error) {
        if (signal.aborted) throw abortedError(signal);
        throw new GraphCallError(-1, '', (error as Error).message, { cause: error });
      }
      const body = await readJson(response);
      offset = end + 1;
      if (response.status === 202) {
        // More expected: Graph names the ranges it still lacks; the next one must start where we are.
        const next = (body as { nextExpectedRanges?: unknown } | null)?.nextExpectedRanges;
        const start = Array.isArray(next) && typeof next[0] === 'string' ? Number(next[0].split('-')[0]) : offset;
        if (start !== offset) throw new AppRunError(`OneDrive: the upload session expects byte ${start} next, not ${offset}`, { retryable: true });
        continue;
      }
      if (!response.ok) {
        const { code, message } = graphErrorBody(body);
        // The session's URL no longer exists (expired or cancelled): a new attempt starts a new session.
        if (response.status === 404) throw new AppRunError('OneDrive: the upload session expired or was cancelled (404)', { retryable: true });
        throw new GraphCallError(response.status, code, message);
      }
      if (offset !== size) throw new AppRunError(`OneDrive: the upload session ended after ${offset} of ${size} bytes`, { retryable: true });
      return driveItemOf(body);
    }
    throw new AppRunError(`OneDrive: the stored file is shorter (${offset} bytes) than its recorded size of ${size} bytes`, { retryable: true });
  }

  /** Runs one Graph client request, turning its GraphError (or an abort) into GraphCallError / AppRunError. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    const { signal } = this.options;
    if (signal.aborted) throw abortedError(signal);
    try {
      return await request();
    } catch (error) {
      if (signal.aborted) throw abortedError(signal);
      if (error instanceof GraphError) {
        // A body that is not JSON (a proxy's HTML page) fails to parse: the status alone then tells.
        const unparsed = error.code === 'SyntaxError';
        throw new GraphCallError(error.statusCode, unparsed ? '' : (error.code ?? ''), unparsed ? '' : error.message, { cause: error });
      }
      throw error;
    }
  }
}

/** The stream cut into pieces of exactly `size` bytes (the last may be shorter). */
export async function* fixedChunks(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let length = 0;
  for await (const piece of stream) {
    let rest: Buffer = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string);
    while (rest.length > 0) {
      const take = Math.min(size - length, rest.length);
      parts.push(rest.subarray(0, take));
      length += take;
      rest = rest.subarray(take);
      if (length === size) {
        yield Buffer.concat(parts, length);
        parts = [];
        length = 0;
      }
    }
  }
  if (length > 0) yield Buffer.concat(parts, length);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Best effort: tells Graph to drop a session that will not be finished (it would expire anyway). */
function cancelSession(uploadUrl: string): void {
  fetch(uploadUrl, { method: 'DELETE', signal: AbortSignal.timeout(10_000) })
    .then(
      (r) => r.body?.cancel(),
      () => undefined,
    )
    .catch(() => undefined);
}

function driveItemOf(answer: unknown): DriveItem {
  const item = (answer ?? {}) as Record<string, unknown>;
  if (typeof item.id !== 'string' || typeof item.name !== 'string') {
    throw new AppRunError('OneDrive: Graph answered the upload without a DriveItem', { retryable: true });
  }
  return {
    id: item.id,
    name: item.name,
    size: typeof item.size === 'number' ? item.size : Number(item.size ?? 0),
    webUrl: typeof item.webUrl === 'string' ? item.webUrl : '',
  };
}
