import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Dropbox, DropboxAuth, DropboxResponseError, type files } from 'dropbox';
import { AppRunError } from '../contract.js';
import { toAppRunError, type DropboxRequestKind } from './dropbox-errors.js';
import type { DropboxCredentials } from './dropbox-settings.js';

/** The operator's Dropbox base URLs (config `endpoints`; AppEndpoints). */
export interface DropboxEndpoints {
  /** RPC routes (`/2/...`) and the OAuth token endpoint (`/oauth2/token`). */
  dropboxApiUrl: string;
  /** Content routes: uploads (`/2/files/upload`, upload sessions). */
  dropboxContentUrl: string;
}

/**
 * Why a custom `fetch`: the SDK (dropbox v10, src/utils.js) builds every URL itself, always `https://`:
 * `baseApiUrl(host, domain, delimiter)` gives `https://<host><delimiter><domain>/2/` (`api.dropboxapi.com`,
 * `content.dropboxapi.com`), and with any other `domain` it switches to its own test naming
 * (`api-content-<domain>`); `OAuth2TokenUrl` likewise gives `https://api.dropboxapi.com/oauth2/token`.
 * So `domain`/`domainDelimiter` can neither choose the scheme (`http://127.0.0.1:PORT`), a port per
 * service, nor a path prefix. Instead the SDK keeps its defaults and the fetch we give it moves each
 * request onto the configured base: `https://api.dropboxapi.com/<rest>` → `dropboxApiUrl/<rest>`,
 * `https://content.dropboxapi.com/<rest>` → `dropboxContentUrl/<rest>`; any other URL is refused.
 * The same fetch passes the run's AbortSignal to every request (the SDK passes none).
 *
 * And it encodes the token refresh: the SDK's default puts the refresh token and the app secret in the
 * token URL's query string, unencoded; with `dataOnBody` it hands fetch a plain object body (with a JSON
 * content type, which fetch would send as "[object Object]"). We use `dataOnBody` and send that object as
 * the `application/x-www-form-urlencoded` form Dropbox documents for /oauth2/token, so secrets stay out
 * of URLs (and any proxy's access log) and are encoded properly.
 */
const SDK_BASES: readonly { base: string; endpoint: keyof DropboxEndpoints; kind: DropboxRequestKind }[] = [
  { base: 'https://api.dropboxapi.com', endpoint: 'dropboxApiUrl', kind: 'api' },
  { base: 'https://content.dropboxapi.com', endpoint: 'dropboxContentUrl', kind: 'content' },
];

export function rewriteDropboxUrl(url: string, endpoints: DropboxEndpoints): { url: string; kind: DropboxRequestKind } {
  for (const { base, endpoint, kind } of SDK_BASES) {
    if (url !== base && !url.startsWith(`${base}/`) && !url.startsWith(`${base}?`)) continue;
    const rest = url.slice(base.length);
    return { url: `${endpoints[endpoint].replace(/\/+$/, '')}${rest}`, kind: rest.startsWith('/oauth2/') ? 'token' : kind };
  }
  let origin = 'an unparsable URL';
  try {
    origin = new URL(url).origin;
  } catch {
    // keep the generic wording; never echo the whole URL (it could carry a secret)
  }
  throw new AppRunError(`the Dropbox SDK asked for ${origin}, which is not a Dropbox API host this app knows`, { retryable: false });
}

/** What the SDK hands its fetch: a URL string and a plain init. */
interface SdkFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

export function dropboxFetch(endpoints: DropboxEndpoints, signal: AbortSignal, onRequest: (kind: DropboxRequestKind) => void = () => undefined, fetchImpl: FetchFunction = fetch) {
  return (url: string, init: SdkFetchInit = {}): Promise<Response> => {
    const target = rewriteDropboxUrl(url, endpoints);
    onRequest(target.kind);
    const headers = new Headers(init.headers);
    let body = init.body as RequestInit['body'];
    if (isPlainObject(init.body)) {
      // The token refresh with dataOnBody (see the top): send it as a form.
      body = new URLSearchParams(Object.entries(init.body).map(([k, v]): [string, string] => [k, String(v)])).toString();
      headers.set('content-type', 'application/x-www-form-urlencoded');
    }
    return fetchImpl(target.url, { method: init.method ?? 'POST', headers, body, signal });
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Access tokens obtained from refresh tokens, per (app key, app secret, refresh token), so a batch of a
 * thousand screenshots does not refresh a thousand times. The SDK refreshes a token 5 minutes before it
 * expires; a token Dropbox refuses before then (revoked) is dropped and refreshed once (DropboxUploader).
 */
export class TokenCache {
  private readonly entries = new Map<string, { accessToken: string; expiresAt: Date }>();
  constructor(private readonly maxEntries = 1000) {}

  static keyOf(credentials: Extract<DropboxCredentials, { kind: 'refresh_token' }>): string {
    return createHash('sha256')
      .update(JSON.stringify([credentials.appKey, credentials.appSecret, credentials.refreshToken]))
      .digest('hex');
  }

  get(key: string): { accessToken: string; expiresAt: Date } | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt.getTime() <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, accessToken: string | undefined, expiresAt: Date | undefined): void {
    this.entries.delete(key);
    // A token without a usable expiry is not kept: the SDK would never refresh it.
    if (!accessToken || !(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime())) return;
    this.entries.set(key, { accessToken, expiresAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/** One output to upload: its size, and its bytes in memory or as a stream (read at most once each). */
export interface UploadSource {
  size: number;
  read(): Promise<Buffer>;
  stream(): Promise<Readable>;
}

export interface UploadLimits {
  /** Files up to this size go in one `files/upload` request (Dropbox allows up to 150 MB). */
  singleRequestBytes: number;
  /** Larger files go through an upload session in chunks of this size. */
  chunkBytes: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { singleRequestBytes: 128 * 1024 * 1024, chunkBytes: 8 * 1024 * 1024 };

export interface UploaderOptions {
  endpoints: DropboxEndpoints;
  credentials: DropboxCredentials;
  signal: AbortSignal;
  tokens: TokenCache;
  limits?: UploadLimits;
  fetchImpl?: FetchFunction;
}

export type DropboxWriteMode = 'add' | 'overwrite';

/**
 * One run's Dropbox client: the SDK with our fetch (see the top), the run's signal, and the credentials
 * of the configuration. Every failure leaves it as an AppRunError (dropbox-errors.ts).
 */
export class DropboxUploader {
  private readonly auth: DropboxAuth;
  private readonly dbx: Dropbox;
  private readonly limits: UploadLimits;
  private readonly cacheKey: string | null;
  private lastRequest: DropboxRequestKind | null = null;
  private refreshedThisRun = false;

  constructor(private readonly options: UploaderOptions) {
    this.limits = options.limits ?? DEFAULT_UPLOAD_LIMITS;
    const fetch = dropboxFetch(
      options.endpoints,
      options.signal,
      (kind) => {
        this.lastRequest = kind;
        if (kind === 'token') this.refreshedThisRun = true;
      },
      options.fetchImpl,
    );
    const { credentials } = options;
    if (credentials.kind === 'access_token') {
      this.cacheKey = null;
      this.auth = new DropboxAuth({ fetch, accessToken: credentials.accessToken });
    } else {
      this.cacheKey = TokenCache.keyOf(credentials);
      const cached = options.tokens.get(this.cacheKey);
      this.auth = new DropboxAuth({
        fetch,
        dataOnBody: true,
        refreshToken: credentials.refreshToken,
        clientId: credentials.appKey,
        clientSecret: credentials.appSecret,
        accessToken: cached?.accessToken,
        accessTokenExpiresAt: cached?.expiresAt,
      });
    }
    this.dbx = new Dropbox({ auth: this.auth });
  }

  /** Gets an access token now when the settings hold a refresh token (so a bad one fails before any upload). */
  async authenticate(): Promise<void> {
    try {
      // Typed `void` in the SDK's declarations; it returns a promise.
      await (this.auth.checkAndRefreshAccessToken() as unknown as Promise<void>);
      this.remember();
    } catch (error) {
      throw this.fail(error);
    }
  }

  /** Writes one file at `path`: `add` never replaces a different file (autorename), `overwrite` does. */
  async upload(path: string, source: UploadSource, mode: DropboxWriteMode): Promise<files.FileMetadata> {
    try {
      return await this.uploadOnce(path, source, mode);
    } catch (error) {
      if (!this.mayRefreshAfter(error)) throw this.fail(error, path);
    }
    // The cached access token was refused (revoked early): drop it, refresh once, try again.
    try {
      if (this.cacheKey) this.options.tokens.delete(this.cacheKey);
      await (this.auth.refreshAccessToken() as unknown as Promise<void>);
      this.remember();
      return await this.uploadOnce(path, source, mode);
    } catch (error) {
      throw this.fail(error, path);
    }
  }

  private async uploadOnce(path: string, source: UploadSource, mode: DropboxWriteMode): Promise<files.FileMetadata> {
    const commit: files.CommitInfo = { path, mode: { '.tag': mode } as files.WriteMode, autorename: mode === 'add' };
    if (source.size <= this.limits.singleRequestBytes) {
      const contents = await source.read();
      if (contents.length <= this.limits.singleRequestBytes) return (await this.dbx.filesUpload({ ...commit, contents })).result;
      return this.sessionUpload(commit, [contents]);
    }
    const stream = await source.stream();
    try {
      return await this.sessionUpload(commit, stream);
    } finally {
      stream.destroy();
    }
  }

  /** files/upload_session/start, append_v2 per chunk, finish with the commit (files over the single-request size). */
  private async sessionUpload(commit: files.CommitInfo, body: AsyncIterable<unknown> | Iterable<Buffer>): Promise<files.FileMetadata> {
    let sessionId: string | null = null;
    let offset = 0;
    for await (const chunk of rechunk(body, this.limits.chunkBytes)) {
      this.options.signal.throwIfAborted();
      if (sessionId === null) sessionId = (await this.dbx.filesUploadSessionStart({ contents: chunk })).result.session_id;
      else await this.dbx.filesUploadSessionAppendV2({ cursor: { session_id: sessionId, offset }, contents: chunk });
      offset += chunk.length;
    }
    if (sessionId === null) sessionId = (await this.dbx.filesUploadSessionStart({ contents: Buffer.alloc(0) })).result.session_id;
    return (await this.dbx.filesUploadSessionFinish({ cursor: { session_id: sessionId, offset }, commit, contents: Buffer.alloc(0) })).result;
  }

  private mayRefreshAfter(error: unknown): boolean {
    return (
      this.cacheKey !== null &&
      !this.refreshedThisRun &&
      this.lastRequest !== 'token' &&
      !this.options.signal.aborted &&
      error instanceof DropboxResponseError &&
      (error as DropboxResponseError<unknown>).status === 401
    );
  }

  private remember(): void {
    if (this.cacheKey) this.options.tokens.set(this.cacheKey, this.auth.getAccessToken(), this.auth.getAccessTokenExpiresAt());
  }

  private fail(error: unknown, path?: string): AppRunError {
    return toAppRunError(error, { request: this.lastRequest, path, signal: this.options.signal });
  }
}

/** Re-cuts a byte stream into chunks of `size` (the last may be shorter). */
export async function* rechunk(body: AsyncIterable<unknown> | Iterable<unknown>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const part of body) {
    const buf = Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array);
    if (buf.length === 0) continue;
    pending.push(buf);
    length += buf.length;
    while (length >= size) {
      const all = Buffer.concat(pending, length);
      yield all.subarray(0, size);
      const rest = all.subarray(size);
      pending = rest.length > 0 ? [rest] : [];
      length = rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(pending, length);
}
