import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

/**
 * A local stand-in for the Microsoft identity platform's token endpoint and the Microsoft Graph drive
 * upload routes, on 127.0.0.1 and a port the OS picks. What it implements, as Graph documents it:
 *  - `POST /login/<tenant>/oauth2/v2.0/token` (form): client_credentials (client id + secret, scope
 *    `https://graph.microsoft.com/.default`) and refresh_token grants; wrong secret → 401 invalid_client,
 *    unknown refresh token → 400 invalid_grant; answers {access_token, expires_in, token_type}.
 *  - under `/graph/v1.0`, for `/me/drive` (delegated tokens only), `/drives/<id>` and `/users/<id>/drive`:
 *    `PUT …/root:/<path>:/content` (simple upload) and `POST …/root:/<path>:/createUploadSession`, with
 *    `@microsoft.graph.conflictBehavior` rename (`name 1.png`) | replace | fail (409); a bad or revoked
 *    Bearer token → 401, an unknown drive or user → 404. Answers are DriveItem JSON.
 *  - the session's uploadUrl: ranged `PUT`s in order (no Authorization header, as Graph requires; ranges
 *    multiples of 320 KiB except the last) → 202 with nextExpectedRanges, the last → 201 DriveItem;
 *    `DELETE` cancels the session.
 * Every token request, Graph request and finished upload is recorded for the tests to check.
 */

export const FAKE_SCOPE = 'https://graph.microsoft.com/.default';
const CHUNK_UNIT = 320 * 1024;
const MAX_BODY = 100 * 1024 * 1024;

export interface FakeMicrosoftGraphOptions {
  clientId: string;
  /** The client's secret; required for client_credentials, and for refresh_token unless `publicClient`. */
  clientSecret: string;
  /** Refresh tokens the fake accepts (delegated access as the user `me`). */
  refreshTokens?: string[];
  /** A public client (no secret needed with a refresh token). */
  publicClient?: boolean;
  /** Drives that exist for `/drives/<id>`. */
  driveIds?: string[];
  /** Users whose OneDrive exists for `/users/<id>/drive`. */
  userIds?: string[];
  /** Seconds of life of the issued tokens. */
  tokenLifetime?: number;
}

export interface RecordedTokenRequest {
  tenant: string;
  form: Record<string, string>;
  status: number;
}

export interface RecordedGraphRequest {
  method: string;
  /** The request's path and query as received (percent-encoded). */
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  status: number;
}

export interface RecordedUpload {
  /** `me`, `drives/<id>` or `users/<id>`. */
  drive: string;
  /** Where the file ended up (after a rename), decoded: `Screenshots/www.example.com/4242-www.example.com.png`. */
  path: string;
  /** The path that was asked for. */
  requestedPath: string;
  bytes: Buffer;
  contentType: string | undefined;
  via: 'simple' | 'session';
  conflictBehavior: string;
  /** Sizes of the ranged PUTs of a session upload. */
  chunks: number[];
  item: FakeDriveItem;
}

export interface FakeDriveItem {
  id: string;
  name: string;
  size: number;
  webUrl: string;
  file: { mimeType: string };
  parentReference: { driveId: string; path: string };
}

interface StoredFile {
  item: FakeDriveItem;
  path: string;
  bytes: Buffer;
}
interface Session {
  id: string;
  drive: string;
  path: string;
  conflict: string;
  received: Buffer[];
  next: number;
  chunks: number[];
  total: number | null;
}
interface Fault {
  route: 'token' | 'graph' | 'upload';
  status: number;
  times: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface FakeMicrosoftGraph {
  /** `http://127.0.0.1:<port>/graph/v1.0`: what `endpoints.microsoftGraphUrl` is set to. */
  graphUrl: string;
  /** `http://127.0.0.1:<port>/login`: what `endpoints.microsoftLoginUrl` is set to. */
  loginUrl: string;
  tokenRequests: RecordedTokenRequest[];
  graphRequests: RecordedGraphRequest[];
  /** Finished uploads, in order. */
  uploads: RecordedUpload[];
  /** Ranged PUTs received on upload sessions (all sessions), and session DELETEs. */
  sessionPuts: { session: string; range: string; size: number; authorization: string | undefined; status: number }[];
  sessionDeletes: string[];
  /** The next `times` requests of that route answer `status` (with a Graph or OAuth error body). */
  failNext(route: Fault['route'], status: number, options?: { times?: number; body?: unknown; headers?: Record<string, string> }): void;
  /** Called on each ranged PUT before it is answered (a test can abort the run there). */
  onSessionPut: ((put: { session: string; range: string }) => void) | null;
  /** Access tokens issued so far stop working (401), as after a revocation. */
  revokeTokens(): void;
  /** The stored file at `path` of `drive` (case-insensitive, like OneDrive), if any. */
  file(drive: string, path: string): { item: FakeDriveItem; bytes: Buffer } | undefined;
  stop(): Promise<void>;
}

export async function startFakeMicrosoftGraph(options: FakeMicrosoftGraphOptions): Promise<FakeMicrosoftGraph> {
  const refreshTokens = new Set(options.refreshTokens ?? []);
  const driveIds = new Set(options.driveIds ?? []);
  const userIds = new Set((options.userIds ?? []).map((u) => u.toLowerCase()));
  const lifetime = options.tokenLifetime ?? 3599;
  const tokens = new Map<string, { delegated: boolean; tenant: string }>();
  const drives = new Map<string, Map<string, StoredFile>>();
  const sessions = new Map<string, Session>();
  const faults: Fault[] = [];
  let origin = '';

  const fake: FakeMicrosoftGraph = {
    graphUrl: '',
    loginUrl: '',
    tokenRequests: [],
    graphRequests: [],
    uploads: [],
    sessionPuts: [],
    sessionDeletes: [],
    onSessionPut: null,
    failNext(route, status, opts = {}) {
      faults.push({ route, status, times: opts.times ?? 1, body: opts.body, headers: opts.headers ?? {} });
    },
    revokeTokens() {
      tokens.clear();
    },
    file(drive, path) {
      const stored = drives.get(drive)?.get(path.toLowerCase());
      return stored ? { item: stored.item, bytes: stored.bytes } : undefined;
    },
    stop: async () => undefined,
  };

  const takeFault = (route: Fault['route']): Fault | null => {
    const fault = faults.find((f) => f.route === route && f.times > 0);
    if (!fault) return null;
    fault.times -= 1;
    return fault;
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...(text ? { 'content-type': 'application/json; odata.metadata=minimal; charset=utf-8' } : {}), ...headers });
    res.end(text);
    return status;
  };
  const graphError = (res: ServerResponse, status: number, code: string, message: string): number =>
    send(res, status, { error: { code, message, innerError: { 'request-id': randomUUID(), date: new Date().toISOString() } } });

  /** Stores a finished file under the conflict behaviour; null when it must fail (409). */
  const commit = (drive: string, requestedPath: string, bytes: Buffer, conflict: string, contentType: string | undefined): StoredFile | null => {
    const files = drives.get(drive) ?? new Map<string, StoredFile>();
    drives.set(drive, files);
    let path = requestedPath;
    const existing = files.get(path.toLowerCase());
    if (existing) {
      if (conflict === 'fail') return null;
      if (conflict === 'rename') {
        const slash = path.lastIndexOf('/');
        const folder = path.slice(0, slash + 1);
        const name = path.slice(slash + 1);
        const dot = name.lastIndexOf('.');
        const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
        for (let n = 1; files.has(path.toLowerCase()); n++) path = `${folder}${stem} ${n}${ext}`;
      }
    }
    const previous = conflict === 'replace' ? existing : undefined;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const item: FakeDriveItem = {
      id: previous?.item.id ?? `01FAKE${randomBytes(8).toString('hex').toUpperCase()}`,
      name,
      size: bytes.length,
      webUrl: `https://contoso.sharepoint.example/${drive}/${path.split('/').map(encodeURIComponent).join('/')}`,
      file: { mimeType: contentType ?? 'application/octet-stream' },
      parentReference: { driveId: drive, path: `/drive/root:${folder ? `/${folder}` : ''}` },
    };
    const stored = { item, path, bytes };
    files.set(path.toLowerCase(), stored);
    return stored;
  };

  const handleToken = async (req: IncomingMessage, res: ServerResponse, tenant: string): Promise<void> => {
    const form = Object.fromEntries(new URLSearchParams((await readBody(req)).toString('utf8')));
    const record: RecordedTokenRequest = { tenant, form, status: 0 };
    fake.tokenRequests.push(record);
    const fault = takeFault('token');
    if (fault) {
      record.status = send(res, fault.status, fault.body ?? { error: 'temporarily_unavailable', error_description: 'AADSTS50196: The server is busy.' }, fault.headers);
      return;
    }
    const oauthError = (status: number, error: string, description: string): number =>
      send(res, status, { error, error_description: `${description}\r\nTrace ID: ${randomUUID()}\r\nCorrelation ID: ${randomUUID()}`, error_codes: [0], trace_id: randomUUID() });
    if (form.client_id !== options.clientId) {
      record.status = oauthError(400, 'unauthorized_client', `AADSTS700016: Application with identifier '${form.client_id ?? ''}' was not found in the directory.`);
      return;
    }
    const secretOk = form.client_secret === options.clientSecret;
    if (form.client_secret !== undefined && !secretOk) {
      record.status = oauthError(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.');
      return;
    }
    let delegated: boolean;
    if (form.grant_type === 'client_credentials') {
      if (!secretOk) {
        record.status = oauthError(401, 'invalid_client', "AADSTS7000218: The request body must contain the following parameter: 'client_assertion' or 'client_secret'.");
        return;
      }
      if (form.scope !== FAKE_SCOPE) {
        record.status = oauthError(
          400,
          'invalid_scope',
          `AADSTS1002012: The provided value for scope ${form.scope ?? ''} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier.`,
        );
        return;
      }
      if (['common', 'organizations', 'consumers'].includes(tenant)) {
        record.status = oauthError(
          400,
          'invalid_request',
          'AADSTS90009: Application is requesting a token for itself. This scenario is supported only if resource is specified using the GUID based App Identifier.',
        );
        return;
      }
      delegated = false;
    } else if (form.grant_type === 'refresh_token') {
      if (!options.publicClient && !secretOk) {
        record.status = oauthError(401, 'invalid_client', "AADSTS7000218: The request body must contain the following parameter: 'client_assertion' or 'client_secret'.");
        return;
      }
      if (!refreshTokens.has(form.refresh_token ?? '')) {
        record.status = oauthError(400, 'invalid_grant', "AADSTS70000: The provided value for the 'refresh_token' is not valid.");
        return;
      }
      delegated = true;
    } else {
      record.status = oauthError(400, 'unsupported_grant_type', 'AADSTS70003: The app requested an unsupported grant type.');
      return;
    }
    const accessToken = `fake-at-${randomBytes(16).toString('hex')}`;
    tokens.set(accessToken, { delegated, tenant });
    record.status = send(res, 200, {
      token_type: 'Bearer',
      scope: form.scope,
      expires_in: lifetime,
      ext_expires_in: lifetime,
      access_token: accessToken,
      ...(delegated ? { refresh_token: `rotated-${randomBytes(8).toString('hex')}` } : {}),
    });
  };

  const DRIVE_ROUTE = /^\/graph\/v1\.0\/(?:(me)\/drive|drives\/([^/]+)|users\/([^/]+)\/drive)\/root:\/(.+):\/(content|createUploadSession)$/;

  const handleGraph = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> => {
    const body = await readBody(req);
    const fault = takeFault('graph');
    if (fault) return send(res, fault.status, fault.body ?? { error: { code: 'serviceNotAvailable', message: 'Service unavailable' } }, fault.headers);

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer === undefined ? undefined : tokens.get(bearer);
    if (!token) return graphError(res, 401, 'InvalidAuthenticationToken', bearer === undefined ? 'Access token is empty.' : 'Access token validation failure. Invalid audience.');

    const route = DRIVE_ROUTE.exec(url.pathname);
    if (!route) return graphError(res, 400, 'invalidRequest', `Invalid request: ${req.method} ${url.pathname}`);
    const [, me, driveId, userId, encodedPath, action] = route as unknown as [string, string | undefined, string | undefined, string | undefined, string, string];
    let drive: string;
    if (me) {
      if (!token.delegated) return graphError(res, 400, 'BadRequest', '/me request is only valid with delegated authentication flow.');
      drive = 'me';
    } else if (driveId !== undefined) {
      const id = decodeURIComponent(driveId);
      if (!driveIds.has(id)) return graphError(res, 404, 'itemNotFound', 'The resource could not be found.');
      drive = `drives/${id}`;
    } else {
      const id = decodeURIComponent(userId as string);
      if (!userIds.has(id.toLowerCase())) return graphError(res, 404, 'ResourceNotFound', `User not found`);
      drive = `users/${id}`;
    }
    let path: string;
    try {
      path = encodedPath
        .split('/')
        .map((s) => decodeURIComponent(s))
        .join('/');
    } catch {
      return graphError(res, 400, 'invalidRequest', 'Malformed path');
    }
    if (path.split('/').some((s) => s === '' || /[":<>?*|\\]/.test(s))) return graphError(res, 400, 'invalidRequest', 'Invalid path');

    if (action === 'content') {
      if (req.method !== 'PUT') return graphError(res, 405, 'invalidRequest', 'Method not allowed');
      const conflict = url.searchParams.get('@microsoft.graph.conflictBehavior') ?? 'replace';
      const contentType = req.headers['content-type'];
      const replacing = conflict === 'replace' && drives.get(drive)?.has(path.toLowerCase()) === true;
      const stored = commit(drive, path, body, conflict, contentType);
      if (!stored) return graphError(res, 409, 'nameAlreadyExists', 'The specified item name already exists.');
      fake.uploads.push({ drive, path: stored.path, requestedPath: path, bytes: body, contentType, via: 'simple', conflictBehavior: conflict, chunks: [body.length], item: stored.item });
      return send(res, replacing ? 200 : 201, stored.item);
    }

    if (req.method !== 'POST') return graphError(res, 405, 'invalidRequest', 'Method not allowed');
    let request: { item?: Record<string, unknown> } = {};
    try {
      request = body.length > 0 ? (JSON.parse(body.toString('utf8')) as typeof request) : {};
    } catch {
      return graphError(res, 400, 'invalidRequest', 'The request body is not valid JSON');
    }
    const conflict = String(request.item?.['@microsoft.graph.conflictBehavior'] ?? 'replace');
    if (conflict === 'fail' && drives.get(drive)?.has(path.toLowerCase())) return graphError(res, 409, 'nameAlreadyExists', 'The specified item name already exists.');
    const session: Session = { id: randomBytes(12).toString('hex'), drive, path, conflict, received: [], next: 0, chunks: [], total: null };
    sessions.set(session.id, session);
    return send(res, 200, {
      uploadUrl: `${origin}/upload-session/${session.id}?tempauth=${randomBytes(8).toString('hex')}`,
      expirationDateTime: new Date(Date.now() + 3_600_000).toISOString(),
      nextExpectedRanges: ['0-'],
    });
  };

  const handleSession = async (req: IncomingMessage, res: ServerResponse, id: string): Promise<void> => {
    const session = sessions.get(id);
    if (req.method === 'DELETE') {
      fake.sessionDeletes.push(id);
      sessions.delete(id);
      await readBody(req);
      send(res, session ? 204 : 404, session ? undefined : { error: { code: 'itemNotFound', message: 'The upload session was not found' } });
      return;
    }
    const range = req.headers['content-range'] ?? '';
    const body = await readBody(req);
    const put = { session: id, range, size: body.length, authorization: req.headers.authorization, status: 0 };
    fake.sessionPuts.push(put);
    fake.onSessionPut?.({ session: id, range });
    const answer = (status: number, json: unknown): void => {
      put.status = send(res, status, json);
    };
    const fault = takeFault('upload');
    if (fault) return answer(fault.status, fault.body ?? { error: { code: 'serviceNotAvailable', message: 'Service unavailable' } });
    if (!session) return answer(404, { error: { code: 'itemNotFound', message: 'The upload session was not found' } });
    if (req.method !== 'PUT') return answer(405, { error: { code: 'invalidRequest', message: 'Method not allowed' } });
    // Graph: the uploadUrl is pre-authenticated; an Authorization header may be refused with 401.
    if (req.headers.authorization !== undefined) return answer(401, { error: { code: 'unauthenticated', message: 'Do not send an Authorization header to the uploadUrl' } });
    const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!match) return answer(400, { error: { code: 'invalidRange', message: `Bad Content-Range: ${range}` } });
    const [start, end, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const last = end === total - 1;
    if (start !== session.next || end < start || end >= total || body.length !== end - start + 1 || (session.total !== null && session.total !== total)) {
      return answer(416, { error: { code: 'invalidRange', message: `Expected range starting at ${session.next}`, nextExpectedRanges: [`${session.next}-`] } });
    }
    if (!last && body.length % CHUNK_UNIT !== 0) return answer(400, { error: { code: 'invalidRange', message: 'Fragments must be multiples of 320 KiB' } });
    if (body.length > 60 * 1024 * 1024) return answer(413, { error: { code: 'invalidRange', message: 'Fragment too large' } });
    session.total = total;
    session.received.push(body);
    session.chunks.push(body.length);
    session.next = end + 1;
    if (!last) return answer(202, { expirationDateTime: new Date(Date.now() + 3_600_000).toISOString(), nextExpectedRanges: [`${session.next}-`] });
    sessions.delete(id);
    const bytes = Buffer.concat(session.received);
    const stored = commit(session.drive, session.path, bytes, session.conflict, undefined);
    if (!stored) return answer(409, { error: { code: 'nameAlreadyExists', message: 'The specified item name already exists.' } });
    fake.uploads.push({
      drive: session.drive,
      path: stored.path,
      requestedPath: session.path,
      bytes,
      contentType: undefined,
      via: 'session',
      conflictBehavior: session.conflict,
      chunks: session.chunks,
      item: stored.item,
    });
    return answer(201, stored.item);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const token = /^\/login\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    const session = /^\/upload-session\/([0-9a-f]+)$/.exec(url.pathname);
    let work: Promise<unknown>;
    if (token && req.method === 'POST') {
      work = handleToken(req, res, decodeURIComponent(token[1] as string));
    } else if (session) {
      work = handleSession(req, res, session[1] as string);
    } else if (url.pathname.startsWith('/graph/v1.0/')) {
      const record: RecordedGraphRequest = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, contentType: req.headers['content-type'], status: 0 };
      fake.graphRequests.push(record);
      work = handleGraph(req, res, url).then((status) => {
        record.status = status;
      });
    } else {
      work = readBody(req).then(() => send(res, 404, { error: { code: 'notFound', message: `No route ${req.method} ${url.pathname}` } }));
    }
    work.catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { code: 'generalException', message: String(error) } });
      else res.destroy();
    });
  });
  const listening = await listenOnLoopback(server);
  origin = listening.origin;
  fake.graphUrl = `${origin}/graph/v1.0`;
  fake.loginUrl = `${origin}/login`;
  fake.stop = listening.stop;
  return fake;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    size += (part as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body too large');
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts);
}
