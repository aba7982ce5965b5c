import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the parts of Dropbox the dropbox app uses, on one port for both bases (the test
 * configures `dropboxApiUrl` and `dropboxContentUrl` to it), recording every request that arrives:
 *
 *  - POST /oauth2/token, grant_type=refresh_token. Parameters are read from the query string (the SDK's
 *    default) and from an `application/x-www-form-urlencoded` body (what Dropbox documents, and what the
 *    app sends); the app key and secret from those or from HTTP Basic auth. Answers
 *    `{access_token, token_type, expires_in}`, or 400 `{error: invalid_grant | invalid_client | ...}`.
 *  - POST /2/files/upload: `Authorization: Bearer`, the `Dropbox-API-Arg` JSON header (CommitInfo: path,
 *    mode, autorename), the raw bytes as body with `Content-Type: application/octet-stream`. Answers the
 *    FileMetadata JSON. Like Dropbox: `add` keeps an existing file of the same name and content (no
 *    conflict), renames a different one to "name (1).ext" with autorename or answers 409 path/conflict;
 *    `overwrite` replaces it. Paths compare case-insensitively.
 *  - POST /2/files/upload_session/start, /append_v2, /finish: sequential sessions with offset checks.
 *  - Bad tokens get 401 with Dropbox's AuthError body (invalid_access_token / expired_access_token);
 *    a malformed Dropbox-API-Arg or path gets 400 text, as Dropbox answers.
 *
 * `failNext` queues canned answers (a 500, a 429 with Retry-After, a 409 insufficient_space…) for the next
 * requests of a route; `delayNext` holds the next answer back (to abort a request in flight).
 */

export interface RecordedRequest {
  method: string;
  /** Path and query as they arrived. */
  url: string;
  pathname: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed Dropbox-API-Arg header (content routes), else null. */
  arg: Record<string, unknown> | null;
  body: Buffer;
}

export interface StoredFile {
  id: string;
  name: string;
  path_display: string;
  content: Buffer;
  rev: string;
  client_modified: string;
  server_modified: string;
}

export interface CannedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Route = 'token' | 'upload' | 'session' | 'any';

export interface FakeDropboxOptions {
  /** Long-lived access tokens the fake accepts as they are. */
  accessTokens?: string[];
  /** Access tokens it answers 401 expired_access_token for. */
  expiredTokens?: string[];
  /** The app whose refresh token can be exchanged. */
  app?: { key: string; secret: string; refreshToken: string };
  /** expires_in of issued tokens (Dropbox: 14400). */
  expiresIn?: number;
}

export class FakeDropbox {
  readonly requests: RecordedRequest[] = [];
  /** Stored files by lower-cased path. */
  readonly files = new Map<string, StoredFile>();
  readonly validTokens: Set<string>;
  readonly expiredTokens: Set<string>;
  readonly issuedTokens: string[] = [];
  private readonly canned: { route: Route; answer: CannedAnswer }[] = [];
  private delays: { route: Route; ms: number }[] = [];
  private readonly sessions = new Map<string, { chunks: Buffer[]; offset: number; closed: boolean }>();
  private counter = 0;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly options: FakeDropboxOptions,
  ) {
    this.validTokens = new Set(options.accessTokens ?? []);
    this.expiredTokens = new Set(options.expiredTokens ?? []);
  }

  static async start(options: FakeDropboxOptions = {}): Promise<FakeDropbox> {
    let fake: FakeDropbox | null = null;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (fake as FakeDropbox).handle(req, Buffer.concat(chunks), res).catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(error));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeDropbox(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    return fake;
  }

  /** The next `times` requests of `route` get `answer` instead of being served. */
  failNext(route: Route, answer: CannedAnswer, times = 1): void {
    for (let i = 0; i < times; i++) this.canned.push({ route, answer });
  }

  /** The next request of `route` is answered only after `ms`. */
  delayNext(route: Route, ms: number): void {
    this.delays.push({ route, ms });
  }

  /** Requests of one kind, in arrival order. */
  tokenRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.pathname === '/oauth2/token');
  }

  uploads(): RecordedRequest[] {
    return this.requests.filter((r) => r.pathname === '/2/files/upload');
  }

  file(path: string): StoredFile | undefined {
    return this.files.get(path.toLowerCase());
  }

  reset(): void {
    this.requests.length = 0;
    this.files.clear();
    this.canned.length = 0;
    this.delays = [];
    this.sessions.clear();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-dropbox');
    const route: Route = url.pathname === '/oauth2/token' ? 'token' : url.pathname === '/2/files/upload' ? 'upload' : url.pathname.startsWith('/2/files/upload_session/') ? 'session' : 'any';
    let arg: Record<string, unknown> | null = null;
    let argError: string | null = null;
    const argHeader = req.headers['dropbox-api-arg'];
    if (typeof argHeader === 'string') {
      try {
        arg = JSON.parse(argHeader) as Record<string, unknown>;
      } catch (error) {
        argError = `could not decode input as JSON: ${(error as Error).message}`;
      }
    }
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', pathname: url.pathname, headers: req.headers, arg, body });

    const delay = this.delays.findIndex((d) => d.route === route || d.route === 'any');
    if (delay >= 0) {
      const { ms } = this.delays.splice(delay, 1)[0] as { ms: number };
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
    const cannedAt = this.canned.findIndex((c) => c.route === route || c.route === 'any');
    if (cannedAt >= 0) {
      const { answer } = this.canned.splice(cannedAt, 1)[0] as { answer: CannedAnswer };
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      const type = typeof answer.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
      res.writeHead(answer.status, { 'content-type': type, ...answer.headers }).end(text);
      return;
    }

    if (req.method !== 'POST') return this.text(res, 405, 'only POST');
    if (route === 'token') return this.token(req, url, body, res);
    if (route === 'any') return this.text(res, 404, `unknown route ${url.pathname}`);

    const endpoint = url.pathname.slice('/2/'.length);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) return this.text(res, 400, `Error in call to API function "${endpoint}": Must provide HTTP header "Authorization" or URL parameter "authorization".`);
    if (this.expiredTokens.has(bearer)) return this.json(res, 401, { error_summary: 'expired_access_token/..', error: { '.tag': 'expired_access_token' } });
    if (!this.validTokens.has(bearer)) return this.json(res, 401, { error_summary: 'invalid_access_token/...', error: { '.tag': 'invalid_access_token' } });
    if (argError || !arg) return this.text(res, 400, `Error in call to API function "${endpoint}": HTTP header "Dropbox-API-Arg": ${argError ?? 'missing'}`);
    if (req.headers['content-type'] !== 'application/octet-stream') {
      return this.text(res, 400, `Error in call to API function "${endpoint}": Bad HTTP "Content-Type" header: "${req.headers['content-type'] ?? ''}". Expecting "application/octet-stream".`);
    }

    if (route === 'upload') return this.commit(res, endpoint, arg, body, null);
    return this.session(res, endpoint, arg, body);
  }

  private token(req: http.IncomingMessage, url: URL, body: Buffer, res: http.ServerResponse): void {
    const params = new URLSearchParams(url.search);
    if ((req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      for (const [k, v] of new URLSearchParams(body.toString('utf8'))) params.set(k, v);
    }
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      params.set('client_id', decoded.slice(0, colon));
      params.set('client_secret', decoded.slice(colon + 1));
    }
    const app = this.options.app;
    if (params.get('grant_type') !== 'refresh_token') return this.json(res, 400, { error: 'unsupported_grant_type', error_description: `grant_type: ${params.get('grant_type') ?? 'missing'}` });
    if (!app || params.get('client_id') !== app.key || params.get('client_secret') !== app.secret) {
      return this.json(res, 400, { error: 'invalid_client', error_description: 'Invalid client_id or client_secret' });
    }
    if (params.get('refresh_token') !== app.refreshToken) return this.json(res, 400, { error: 'invalid_grant', error_description: 'refresh token is invalid or revoked' });
    const accessToken = `sl.fake-${randomBytes(12).toString('hex')}`;
    this.validTokens.add(accessToken);
    this.issuedTokens.push(accessToken);
    this.json(res, 200, { access_token: accessToken, token_type: 'bearer', expires_in: this.options.expiresIn ?? 14400 });
  }

  private session(res: http.ServerResponse, endpoint: string, arg: Record<string, unknown>, body: Buffer): void {
    if (endpoint === 'files/upload_session/start') {
      const id = `session-${++this.counter}`;
      this.sessions.set(id, { chunks: [body], offset: body.length, closed: arg.close === true });
      return this.json(res, 200, { session_id: id });
    }
    const cursor = (arg.cursor ?? {}) as { session_id?: string; offset?: number };
    const session = this.sessions.get(cursor.session_id ?? '');
    const lookupError = (tag: string, extra: Record<string, unknown> = {}) => {
      const inner = { '.tag': tag, ...extra };
      return endpoint === 'files/upload_session/finish'
        ? this.json(res, 409, { error_summary: `lookup_failed/${tag}/..`, error: { '.tag': 'lookup_failed', lookup_failed: inner } })
        : this.json(res, 409, { error_summary: `${tag}/..`, error: inner });
    };
    if (!session) return lookupError('not_found');
    if (cursor.offset !== session.offset) return lookupError('incorrect_offset', { correct_offset: session.offset });
    session.chunks.push(body);
    session.offset += body.length;
    if (endpoint === 'files/upload_session/append_v2') {
      if (arg.close === true) session.closed = true;
      return this.json(res, 200, null);
    }
    if (endpoint === 'files/upload_session/finish') {
      this.sessions.delete(cursor.session_id as string);
      return this.commit(res, endpoint, (arg.commit ?? {}) as Record<string, unknown>, Buffer.concat(session.chunks), cursor.session_id as string);
    }
    this.text(res, 404, `unknown route ${endpoint}`);
  }

  /** Writes a file as files/upload and upload_session/finish do (CommitInfo: path, mode, autorename). */
  private commit(res: http.ServerResponse, endpoint: string, commit: Record<string, unknown>, content: Buffer, sessionId: string | null): void {
    const path = commit.path;
    if (typeof path !== 'string' || !/^\/(.|[\r\n])*$/.test(path) || path === '/' || path.endsWith('/')) {
      return this.text(
        res,
        400,
        `Error in call to API function "${endpoint}": HTTP header "Dropbox-API-Arg": path: '${String(path)}' did not match pattern '(/(.|[\\r\\n])*)|(ns:[0-9]+(/.*)?)|(id:.*)'`,
      );
    }
    const mode = ((commit.mode ?? { '.tag': 'add' }) as { '.tag'?: string })['.tag'] ?? 'add';
    const writeFailed = (reason: Record<string, unknown>, summary: string) => {
      const error = sessionId === null ? { '.tag': 'path', reason, upload_session_id: `session-${++this.counter}` } : { '.tag': 'path', path: reason };
      return this.json(res, 409, { error_summary: `path/${summary}/..`, error });
    };
    if (mode !== 'add' && mode !== 'overwrite') return this.text(res, 400, `Error in call to API function "${endpoint}": unsupported mode ${mode}`);
    let target = path;
    const existing = this.files.get(path.toLowerCase());
    if (existing && mode === 'add' && !existing.content.equals(content)) {
      if (commit.autorename !== true) return writeFailed({ '.tag': 'conflict', conflict: { '.tag': 'file' } }, 'conflict/file');
      const slash = path.lastIndexOf('/');
      const name = path.slice(slash + 1);
      const dot = name.lastIndexOf('.');
      const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
      for (let n = 1; ; n++) {
        target = `${path.slice(0, slash + 1)}${stem} (${n})${ext}`;
        const other = this.files.get(target.toLowerCase());
        if (!other || other.content.equals(content)) break;
      }
    }
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const previous = this.files.get(target.toLowerCase());
    const stored: StoredFile =
      previous && previous.content.equals(content)
        ? previous
        : {
            id: previous?.id ?? `id:${randomBytes(8).toString('base64url')}`,
            name: target.slice(target.lastIndexOf('/') + 1),
            path_display: target,
            content,
            rev: randomBytes(9).toString('hex'),
            client_modified: now,
            server_modified: now,
          };
    this.files.set(target.toLowerCase(), stored);
    this.json(res, 200, metadataOf(stored));
  }

  private json(res: http.ServerResponse, status: number, value: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  }

  private text(res: http.ServerResponse, status: number, text: string): void {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
  }
}

/** The FileMetadata Dropbox answers for an upload. */
function metadataOf(file: StoredFile): Record<string, unknown> {
  return {
    '.tag': 'file',
    name: file.name,
    path_lower: file.path_display.toLowerCase(),
    path_display: file.path_display,
    id: file.id,
    client_modified: file.client_modified,
    server_modified: file.server_modified,
    rev: file.rev,
    size: file.content.length,
    is_downloadable: true,
    content_hash: contentHash(file.content),
  };
}

/** Dropbox's content hash: SHA-256 over the SHA-256 of each 4 MiB block. */
function contentHash(content: Buffer): string {
  const blocks: Buffer[] = [];
  for (let at = 0; at < content.length; at += 4 * 1024 * 1024)
    blocks.push(
      createHash('sha256')
        .update(content.subarray(at, at + 4 * 1024 * 1024))
        .digest(),
    );
  return createHash('sha256').update(Buffer.concat(blocks)).digest('hex');
}
