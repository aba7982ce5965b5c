import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

/**
 * A local stand-in for Google's token endpoint and the Drive API v3, speaking what google-auth-library and
 * @googleapis/drive really send, on 127.0.0.1 and a port the OS picks:
 *  - `POST /token` (form-encoded): `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` with an
 *    `assertion` (an RS256 JWT whose signature is verified against the service account's public key with
 *    node:crypto; `iss`, `aud`, `scope`, `iat`/`exp` are checked like Google does), or
 *    `grant_type=refresh_token` with client_id / client_secret (form or Basic) and refresh_token. Answers
 *    Google's shapes: `{access_token, expires_in, token_type, scope}`, or `{error, error_description}` with
 *    400 (invalid_grant, invalid_scope, unsupported_grant_type) or 401 (invalid_client).
 *  - `POST /upload/drive/v3/files?uploadType=multipart`: checks the Bearer token it issued, parses the
 *    multipart/related body into the JSON metadata and the media bytes, checks the parents (unknown
 *    folder: 404; a shared drive's folder without `supportsAllDrives=true`: 404, as Drive does), stores the
 *    file and answers the `fields` asked for (`size` as a string, as Drive's int64s are).
 *  - `GET /drive/v3/files?q=name = '…' and '…' in parents and trashed = false`: the one query the app
 *    makes (looking for an earlier attempt's upload).
 * Errors use Drive's body: `{error: {code, message, errors: [{domain, reason, message}]}}`.
 * Faults can be queued (`failNextUploads`, `failNextTokens`), token requests can be left hanging
 * (`hangTokens`) and issued tokens revoked. Everything received is recorded for the test to inspect.
 */

/** The audience Google's token endpoint checks in a service account's assertion (its own URL). */
export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive';

export interface FakeServiceAccount {
  clientEmail: string;
  /** The public half of the account's key (PEM or KeyObject): assertions are verified with it. */
  publicKey: KeyObject | string;
}

export interface FakeOAuthClient {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

export interface TokenRequest {
  grantType: string;
  /** The form as received (the assertion and secrets included: it is a test). */
  form: URLSearchParams;
  /** The assertion's header and claims, for jwt-bearer grants whose assertion could be decoded. */
  jwtHeader?: Record<string, unknown>;
  jwtClaims?: Record<string, unknown>;
  status: number;
}

export interface ReceivedUpload {
  query: URLSearchParams;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The first part, parsed (empty when the body could not be parsed). */
  metadata: Record<string, unknown>;
  metadataContentType: string | undefined;
  /** The second part's bytes. */
  media: Buffer;
  mediaContentType: string | undefined;
  status: number;
}

export interface StoredFile {
  id: string;
  name: string;
  parents: string[];
  mimeType: string;
  content: Buffer;
}

export interface DriveFault {
  status: number;
  reason?: string;
  message?: string;
}

export interface TokenFault {
  status: number;
  error: string;
  description?: string;
}

export interface FakeGoogleDrive {
  /** `http://127.0.0.1:<port>`: the API root (SHOTFARM_GDRIVE_API_URL). */
  url: string;
  /** `<url>/token` (SHOTFARM_GOOGLE_TOKEN_URL). */
  tokenUrl: string;
  tokenRequests: TokenRequest[];
  uploads: ReceivedUpload[];
  listRequests: URLSearchParams[];
  files: StoredFile[];
  /** A folder uploads may name as parent (`root` always exists); in a shared drive it needs supportsAllDrives. */
  addFolder(id: string, opts?: { sharedDrive?: boolean }): void;
  /** The next `count` uploads answer `fault` (after the body was read and recorded). */
  failNextUploads(count: number, fault: DriveFault): void;
  /** The next `count` token requests answer `fault`. */
  failNextTokens(count: number, fault: TokenFault): void;
  /** While true, token requests get no answer. */
  hangTokens: boolean;
  /** Every access token issued so far stops working (Drive answers 401). */
  revokeAccessTokens(): void;
  stop(): Promise<void>;
}

export async function startFakeGoogleDrive(opts: { serviceAccounts?: FakeServiceAccount[]; oauthClients?: FakeOAuthClient[] } = {}): Promise<FakeGoogleDrive> {
  const serviceAccounts = new Map((opts.serviceAccounts ?? []).map((a) => [a.clientEmail, typeof a.publicKey === 'string' ? createPublicKey(a.publicKey) : a.publicKey]));
  const oauthClients = opts.oauthClients ?? [];
  const folders = new Map<string, { sharedDrive: boolean }>([['root', { sharedDrive: false }]]);
  const accessTokens = new Map<string, { expires: number; revoked: boolean }>();
  const uploadFaults: DriveFault[] = [];
  const tokenFaults: TokenFault[] = [];

  const fake: FakeGoogleDrive = {
    url: '',
    tokenUrl: '',
    tokenRequests: [],
    uploads: [],
    listRequests: [],
    files: [],
    hangTokens: false,
    addFolder: (id, o = {}) => void folders.set(id, { sharedDrive: o.sharedDrive ?? false }),
    failNextUploads: (count, fault) => {
      for (let i = 0; i < count; i++) uploadFaults.push(fault);
    },
    failNextTokens: (count, fault) => {
      for (let i = 0; i < count; i++) tokenFaults.push(fault);
    },
    revokeAccessTokens: () => {
      for (const t of accessTokens.values()) t.revoked = true;
    },
    stop: async () => undefined,
  };

  const issueToken = (res: ServerResponse, scope: string, record: TokenRequest): void => {
    const token = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    accessTokens.set(token, { expires: Date.now() + 3600_000, revoked: false });
    record.status = 200;
    sendJson(res, 200, { access_token: token, expires_in: 3599, scope, token_type: 'Bearer' });
  };

  const tokenError = (res: ServerResponse, record: TokenRequest, status: number, error: string, description: string): void => {
    record.status = status;
    sendJson(res, status, { error, error_description: description });
  };

  const handleToken = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const form = new URLSearchParams(body.toString('utf8'));
    const record: TokenRequest = { grantType: form.get('grant_type') ?? '', form, status: 0 };
    fake.tokenRequests.push(record);
    if (fake.hangTokens) return; // no answer: the client has to give up on its own (its signal)
    const fault = tokenFaults.shift();
    if (fault) return tokenError(res, record, fault.status, fault.error, fault.description ?? fault.error);
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return tokenError(res, record, 400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }

    if (record.grantType === JWT_BEARER) {
      const assertion = form.get('assertion') ?? '';
      const [h, p, s] = assertion.split('.');
      let header: Record<string, unknown>;
      let claims: Record<string, unknown>;
      try {
        header = JSON.parse(Buffer.from(h ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
        claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
      } catch {
        return tokenError(res, record, 400, 'invalid_grant', 'Invalid JWT: the assertion is not a JWT.');
      }
      record.jwtHeader = header;
      record.jwtClaims = claims;
      const key = typeof claims.iss === 'string' ? serviceAccounts.get(claims.iss) : undefined;
      if (!key) return tokenError(res, record, 400, 'invalid_grant', 'Invalid grant: account not found');
      if (header.alg !== 'RS256' || s === undefined || !verify('RSA-SHA256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))) {
        return tokenError(res, record, 400, 'invalid_grant', 'Invalid JWT Signature.');
      }
      if (claims.aud !== GOOGLE_TOKEN_AUDIENCE) return tokenError(res, record, 400, 'invalid_grant', 'Invalid JWT: Failed audience check.');
      const now = Math.floor(Date.now() / 1000);
      const iat = Number(claims.iat);
      const exp = Number(claims.exp);
      if (!(iat <= now + 60 && exp > now && exp - iat <= 3600)) {
        return tokenError(res, record, 400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
      }
      const scope = typeof claims.scope === 'string' ? claims.scope : '';
      if (!scope.split(' ').includes(DRIVE_SCOPE)) return tokenError(res, record, 400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
      return issueToken(res, scope, record);
    }

    if (record.grantType === 'refresh_token') {
      let clientId = form.get('client_id');
      let clientSecret = form.get('client_secret');
      const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
      if (basic?.[1]) {
        const [id, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
        clientId = decodeURIComponent(id ?? '');
        clientSecret = decodeURIComponent(secret ?? '');
      }
      const client = oauthClients.find((c) => c.clientId === clientId);
      if (!client) return tokenError(res, record, 401, 'invalid_client', 'The OAuth client was not found.');
      if (client.clientSecret !== clientSecret) return tokenError(res, record, 401, 'invalid_client', 'Unauthorized');
      if (client.refreshToken !== form.get('refresh_token')) return tokenError(res, record, 400, 'invalid_grant', 'Token has been expired or revoked.');
      return issueToken(res, DRIVE_SCOPE, record);
    }
    return tokenError(res, record, 400, 'unsupported_grant_type', `Invalid grant_type: ${record.grantType}`);
  };

  /** Drive's answer to a request without a valid Bearer token; null when the token is good. */
  const authFailure = (req: IncomingMessage): DriveFault | null => {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer === undefined ? undefined : accessTokens.get(bearer);
    if (!token || token.revoked || token.expires < Date.now()) {
      return { status: 401, reason: 'authError', message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.' };
    }
    return null;
  };

  /** null when every parent can receive files; else Drive's 404. */
  const parentFailure = (parents: string[], supportsAllDrives: boolean): DriveFault | null => {
    for (const parent of parents) {
      const folder = folders.get(parent);
      if (!folder || (folder.sharedDrive && !supportsAllDrives)) return { status: 404, reason: 'notFound', message: `File not found: ${parent}.` };
    }
    return null;
  };

  const handleUpload = async (req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> => {
    const body = await readBody(req);
    const contentType = req.headers['content-type'];
    const record: ReceivedUpload = {
      query,
      authorization: req.headers.authorization,
      contentType,
      metadata: {},
      metadataContentType: undefined,
      media: Buffer.alloc(0),
      mediaContentType: undefined,
      status: 0,
    };
    fake.uploads.push(record);
    const answer = (status: number, data: unknown): void => {
      record.status = status;
      sendJson(res, status, data);
    };
    const fail = (f: DriveFault): void => answer(f.status, driveError(f));

    const denied = authFailure(req);
    if (denied) return fail(denied);
    if (query.get('uploadType') !== 'multipart') return fail({ status: 400, reason: 'badRequest', message: `Unsupported uploadType: ${query.get('uploadType')}` });
    const boundary = /^multipart\/related\s*;.*\bboundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
    if (!boundary) return fail({ status: 400, reason: 'badContent', message: 'Content-Type must be multipart/related with a boundary' });
    let parts: { headers: Record<string, string>; body: Buffer }[];
    try {
      parts = parseMultipart(body, boundary);
    } catch (err) {
      return fail({ status: 400, reason: 'badContent', message: `Malformed multipart body: ${(err as Error).message}` });
    }
    const [meta, media] = parts;
    if (parts.length !== 2 || !meta || !media) return fail({ status: 400, reason: 'badContent', message: `Expected 2 parts (metadata, media), got ${parts.length}` });
    record.metadataContentType = meta.headers['content-type'];
    record.mediaContentType = media.headers['content-type'];
    record.media = media.body;
    if (!(record.metadataContentType ?? '').startsWith('application/json')) return fail({ status: 400, reason: 'badContent', message: 'The first part must be application/json metadata' });
    try {
      record.metadata = JSON.parse(meta.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return fail({ status: 400, reason: 'parseError', message: 'The metadata is not JSON' });
    }
    const fault = uploadFaults.shift();
    if (fault) return fail(fault);

    const parents = Array.isArray(record.metadata.parents) ? record.metadata.parents.map(String) : ['root'];
    const refused = parentFailure(parents, query.get('supportsAllDrives') === 'true');
    if (refused) return fail(refused);
    const file: StoredFile = {
      id: randomBytes(24).toString('base64url').slice(0, 33),
      name: typeof record.metadata.name === 'string' ? record.metadata.name : 'Untitled',
      parents,
      mimeType: record.mediaContentType ?? 'application/octet-stream',
      content: media.body,
    };
    fake.files.push(file);
    answer(200, pick(fileResource(file), query.get('fields')));
  };

  const handleList = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void => {
    fake.listRequests.push(query);
    const denied = authFailure(req);
    if (denied) return sendJson(res, denied.status, driveError(denied));
    const q = /^name = '((?:[^'\\]|\\.)*)' and '((?:[^'\\]|\\.)*)' in parents and trashed = false$/.exec(query.get('q') ?? '');
    if (!q) return sendJson(res, 400, driveError({ status: 400, reason: 'invalid', message: 'Invalid Value' }));
    const name = unescapeQuery(q[1] ?? '');
    const parent = unescapeQuery(q[2] ?? '');
    const folder = folders.get(parent);
    const visible = folder !== undefined && (!folder.sharedDrive || query.get('supportsAllDrives') === 'true');
    const found = visible ? fake.files.filter((f) => f.name === name && f.parents.includes(parent)) : [];
    const inner = /^files\((.*)\)$/.exec(query.get('fields') ?? '')?.[1] ?? null;
    sendJson(res, 200, { files: found.map((f) => pick(fileResource(f), inner)) });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = `${req.method} ${url.pathname}`;
    const handled =
      route === 'POST /token'
        ? handleToken(req, res)
        : route === 'POST /upload/drive/v3/files'
          ? handleUpload(req, res, url.searchParams)
          : route === 'GET /drive/v3/files'
            ? Promise.resolve(handleList(req, res, url.searchParams))
            : Promise.resolve(sendJson(res, 404, driveError({ status: 404, reason: 'notFound', message: `No route: ${route}` })));
    handled.catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, driveError({ status: 500, reason: 'backendError', message: String(err) }));
    });
  });
  const listening = await listenOnLoopback(server);
  fake.url = listening.origin;
  fake.tokenUrl = `${fake.url}/token`;
  fake.stop = listening.stop;
  return fake;
}

function fileResource(file: StoredFile): Record<string, unknown> {
  return {
    kind: 'drive#file',
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    parents: file.parents,
    size: String(file.content.length),
    webViewLink: `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`,
  };
}

/** The fields a `fields` parameter asks for (a flat comma list); all of them without one. */
function pick(resource: Record<string, unknown>, fields: string | null): Record<string, unknown> {
  if (!fields) return { kind: resource.kind, id: resource.id, name: resource.name, mimeType: resource.mimeType };
  return Object.fromEntries(
    fields
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f in resource)
      .map((f) => [f, resource[f]]),
  );
}

function driveError(f: DriveFault): unknown {
  const message = f.message ?? `HTTP ${f.status}`;
  return { error: { code: f.status, message, errors: [{ domain: f.status === 403 && f.reason?.endsWith('LimitExceeded') ? 'usageLimits' : 'global', reason: f.reason ?? 'unknown', message }] } };
}

function unescapeQuery(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/**
 * A multipart/related body (RFC 2046): `--boundary CRLF headers CRLF CRLF content` repeated, each part's
 * content ending at `CRLF --boundary`, the last delimiter followed by `--`.
 */
export function parseMultipart(body: Buffer, boundary: string): { headers: Record<string, string>; body: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new Error('no boundary');
  pos += delimiter.length;
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  for (;;) {
    if (body.subarray(pos, pos + 2).toString('latin1') === '--') return parts;
    if (body.subarray(pos, pos + 2).toString('latin1') !== '\r\n') throw new Error('no CRLF after a boundary');
    pos += 2;
    const end = body.indexOf(next, pos);
    if (end < 0) throw new Error('no closing boundary');
    const part = body.subarray(pos, end);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) throw new Error('a part has no header block');
    const headers: Record<string, string> = {};
    for (const line of part.subarray(0, headerEnd).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, body: Buffer.from(part.subarray(headerEnd + 4)) });
    pos = end + next.length;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, data: unknown): void {
  const body = JSON.stringify(data);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
