import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQuery } from 'node:querystring';

/**
 * A local stand-in for Slack's Web API, for the slack app's tests: an HTTP server on 127.0.0.1 (port
 * picked by the OS) implementing the methods @slack/web-api's files.uploadV2 and the app call, and
 * recording what arrived:
 *  - `POST /api/files.getUploadURLExternal` (form-encoded or JSON: filename, length, alt_text) answers
 *    `{ok, upload_url, file_id}` with an upload URL pointing back at this server;
 *  - `POST /upload/v1/<key>`: the file's bytes (the SDK sends multipart/form-data, a raw body is taken
 *    as it is), answered `OK - <bytes>` like Slack's upload host;
 *  - `POST /api/files.completeUploadExternal` (files as JSON, channel_id, initial_comment, thread_ts)
 *    answers `{ok, files: [{id, name, title, permalink, …}]}`; it checks the files were uploaded and the
 *    channel exists, is not archived and has the app as a member (channel_not_found, is_archived,
 *    not_in_channel otherwise);
 *  - `POST /api/conversations.list` (types, exclude_archived, limit, cursor), paginated with
 *    `response_metadata.next_cursor`, for finding a channel by name.
 * Every `/api/` call must carry the token (Authorization: Bearer, or a `token` parameter): none answers
 * `{ok: false, error: 'not_authed'}`, another token `invalid_auth`. Methods check scopes (missing_scope
 * with `needed`). Other methods answer `unknown_method` (and are recorded, so a test sees them).
 * Faults: `failNext(target, fault)` answers the next call(s) to a method (or `'upload'`) with an HTTP
 * status (with Retry-After for 429) or a Web API error; `hangNext(target)` never answers (for aborts).
 * Error codes the real API documents are used; where it says nothing (completing a file that was never
 * uploaded) the fake picks `file_not_found`.
 */

export const FAKE_SLACK_TOKEN = 'xoxb-1111-2222-fakeslacktoken';

export interface FakeSlackChannel {
  id: string;
  name: string;
  is_private?: boolean;
  /** Whether the app is a member (posting needs it). Default true. */
  member?: boolean;
  archived?: boolean;
}

export const FAKE_SLACK_CHANNELS: readonly FakeSlackChannel[] = [
  { id: 'C0123ABCDE', name: 'general' },
  { id: 'C0SCREENS1', name: 'screenshots' },
  { id: 'C0PRIVATE1', name: 'secret-team', is_private: true },
  { id: 'C0OUTSIDE1', name: 'random', member: false },
  { id: 'C0ARCHIVE1', name: 'old-stuff', archived: true },
];

export interface FakeSlackOptions {
  token?: string;
  channels?: readonly FakeSlackChannel[];
  /** Scopes the token has (default files:write, channels:read, groups:read). */
  scopes?: readonly string[];
  /** At most this many channels per conversations.list page, whatever `limit` asks (default 2, to page). */
  pageSize?: number;
}

export interface RecordedCall {
  method: string;
  params: Record<string, string>;
  authorization: string | null;
  contentType: string | null;
}

export interface RecordedUpload {
  fileId: string;
  /** As declared to files.getUploadURLExternal. */
  filename: string;
  length: number;
  altText: string | null;
  /** The file's bytes as they arrived at the upload URL (the multipart part's content). */
  bytes: Buffer;
  contentType: string | null;
}

export interface RecordedCompletion {
  channel_id: string | null;
  initial_comment: string | null;
  thread_ts: string | null;
  files: { id: string; title?: string }[];
}

export type FakeSlackFault = { status: number; retryAfter?: number } | { error: string; needed?: string };

interface PendingFile {
  fileId: string;
  filename: string;
  length: number;
  altText: string | null;
  bytes: Buffer | null;
  contentType: string | null;
}

const DEFAULT_SCOPES = ['files:write', 'channels:read', 'groups:read'];

export class FakeSlack {
  /** Every request to `/api/…`, in order (rejected ones too). */
  readonly calls: RecordedCall[] = [];
  /** Files whose bytes arrived at their upload URL. */
  readonly uploads: RecordedUpload[] = [];
  /** Successful files.completeUploadExternal calls. */
  readonly completions: RecordedCompletion[] = [];

  private readonly token: string;
  private readonly channels: readonly FakeSlackChannel[];
  private readonly scopes: Set<string>;
  private readonly pageSize: number;
  private readonly pending = new Map<string, PendingFile>();
  private readonly faults: { target: string; fault: FakeSlackFault | 'hang' }[] = [];
  private nextId = 1;
  private origin = '';

  private constructor(
    private readonly server: Server,
    options: FakeSlackOptions,
  ) {
    this.token = options.token ?? FAKE_SLACK_TOKEN;
    this.channels = options.channels ?? FAKE_SLACK_CHANNELS;
    this.scopes = new Set(options.scopes ?? DEFAULT_SCOPES);
    this.pageSize = options.pageSize ?? 2;
  }

  static async start(options: FakeSlackOptions = {}): Promise<FakeSlack> {
    const server = createServer();
    const fake = new FakeSlack(server, options);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      fake.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The base URL to give the app (AppEndpoints.slackApiUrl), like `https://slack.com/api`. */
  get apiUrl(): string {
    return `${this.origin}/api`;
  }

  /** Web API method names called, in order. */
  get methods(): string[] {
    return this.calls.map((c) => c.method);
  }

  /** Answer the next `times` calls to `target` (a method name, or `'upload'` for the upload URL) with `fault`. */
  failNext(target: string, fault: FakeSlackFault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push({ target, fault });
  }

  /** Never answer the next call to `target` (until stop). */
  hangNext(target: string): void {
    this.faults.push({ target, fault: 'hang' });
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private takeFault(target: string): FakeSlackFault | 'hang' | null {
    const index = this.faults.findIndex((f) => f.target === target);
    if (index < 0) return null;
    const [taken] = this.faults.splice(index, 1);
    return taken!.fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', this.origin).pathname;
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');

    const upload = /^\/upload\/v1\/([A-Za-z0-9]+)$/.exec(path);
    if (upload) {
      if (this.answerFault(res, this.takeFault('upload'))) return;
      return this.receiveUpload(upload[1]!, req, body, res);
    }
    const api = /^\/api\/([A-Za-z0-9_.]+)$/.exec(path);
    if (!api) return send(res, 404, 'text/plain', 'not found');

    const method = api[1]!;
    const params = await parseParams(req.headers['content-type'] ?? null, body);
    this.calls.push({ method, params, authorization: req.headers.authorization ?? null, contentType: req.headers['content-type'] ?? null });
    if (this.answerFault(res, this.takeFault(method))) return;

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? params.token;
    if (!bearer) return json(res, { ok: false, error: 'not_authed' });
    if (bearer !== this.token) return json(res, { ok: false, error: 'invalid_auth' });

    switch (method) {
      case 'files.getUploadURLExternal':
        return json(res, this.getUploadUrl(params));
      case 'files.completeUploadExternal':
        return json(res, this.completeUpload(params));
      case 'conversations.list':
        return json(res, this.listConversations(params));
      default:
        return json(res, { ok: false, error: 'unknown_method' });
    }
  }

  /** True when a fault was answered (or the request is left hanging). */
  private answerFault(res: ServerResponse, fault: FakeSlackFault | 'hang' | null): boolean {
    if (fault === null) return false;
    if (fault === 'hang') return true;
    if ('status' in fault) {
      res.writeHead(fault.status, { 'content-type': 'text/plain', ...(fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {}) });
      res.end(fault.status === 429 ? 'rate limited' : 'Internal Server Error');
    } else {
      json(res, { ok: false, error: fault.error, ...(fault.needed ? { needed: fault.needed, provided: [...this.scopes].join(',') } : {}) });
    }
    return true;
  }

  private missingScope(needed: string): Record<string, unknown> | null {
    const missing = needed.split(',').filter((s) => !this.scopes.has(s));
    return missing.length === 0 ? null : { ok: false, error: 'missing_scope', needed: missing.join(','), provided: [...this.scopes].join(',') };
  }

  private getUploadUrl(params: Record<string, string>): Record<string, unknown> {
    const scope = this.missingScope('files:write');
    if (scope) return scope;
    const length = Number(params.length);
    if (!params.filename || !Number.isInteger(length) || length <= 0) return { ok: false, error: 'invalid_arguments' };
    const fileId = `F0FAKE${String(this.nextId++).padStart(4, '0')}`;
    const key = `${fileId}x${Math.random().toString(36).slice(2, 10)}`;
    this.pending.set(key, { fileId, filename: params.filename, length, altText: params.alt_text ?? null, bytes: null, contentType: null });
    return { ok: true, upload_url: `${this.origin}/upload/v1/${key}`, file_id: fileId };
  }

  private async receiveUpload(key: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const file = this.pending.get(key);
    if (!file) return send(res, 404, 'text/plain', 'unknown upload');
    const contentType = req.headers['content-type'] ?? null;
    let bytes = body;
    if (contentType?.startsWith('multipart/form-data')) {
      const parts = await formEntries(contentType, body);
      const part = parts.find((e): e is [string, File] => typeof e[1] !== 'string')?.[1];
      if (!part) return send(res, 400, 'text/plain', 'no file part');
      bytes = Buffer.from(await part.arrayBuffer());
    }
    file.bytes = bytes;
    file.contentType = contentType;
    this.uploads.push({ fileId: file.fileId, filename: file.filename, length: file.length, altText: file.altText, bytes, contentType });
    send(res, 200, 'text/plain', `OK - ${bytes.length}`);
  }

  private completeUpload(params: Record<string, string>): Record<string, unknown> {
    const scope = this.missingScope('files:write');
    if (scope) return scope;
    let files: { id: string; title?: string }[];
    try {
      files = JSON.parse(params.files ?? '') as { id: string; title?: string }[];
      if (!Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f?.id === 'string')) throw new Error('files');
    } catch {
      return { ok: false, error: 'invalid_arguments' };
    }
    const uploaded = files.map((f) => [...this.pending.values()].find((p) => p.fileId === f.id));
    if (uploaded.some((p) => !p?.bytes)) return { ok: false, error: 'file_not_found' };
    const channelId = params.channel_id ?? null;
    if (channelId !== null) {
      const channel = this.channels.find((c) => c.id === channelId);
      if (!channel) return { ok: false, error: 'channel_not_found' };
      if (channel.archived) return { ok: false, error: 'is_archived' };
      if (channel.member === false) return { ok: false, error: 'not_in_channel' };
    }
    this.completions.push({ channel_id: channelId, initial_comment: params.initial_comment ?? null, thread_ts: params.thread_ts ?? null, files });
    return {
      ok: true,
      files: files.map((f, i) => {
        const p = uploaded[i]!;
        return {
          id: f.id,
          created: Math.floor(Date.now() / 1000),
          name: p.filename,
          title: f.title ?? p.filename,
          mimetype: p.filename.endsWith('.png') ? 'image/png' : 'application/octet-stream',
          size: p.length,
          user: 'U0FAKEBOT',
          url_private: `${this.origin}/files-pri/T0FAKE-${f.id}/${encodeURIComponent(p.filename)}`,
          permalink: `${this.origin}/files/U0FAKEBOT/${f.id}/${encodeURIComponent(p.filename)}`,
          channels: channelId ? [channelId] : [],
          is_public: channelId !== null,
        };
      }),
    };
  }

  private listConversations(params: Record<string, string>): Record<string, unknown> {
    const types = (params.types ?? 'public_channel').split(',');
    const needed = [...new Set(types.map((t) => (t === 'private_channel' ? 'groups:read' : 'channels:read')))].join(',');
    const scope = this.missingScope(needed);
    if (scope) return scope;
    const visible = this.channels.filter(
      (c) => (c.is_private ? types.includes('private_channel') && c.member !== false : types.includes('public_channel')) && !(params.exclude_archived === 'true' && c.archived),
    );
    const start = params.cursor
      ? Number(
          Buffer.from(params.cursor, 'base64')
            .toString()
            .replace(/^offset:/, ''),
        )
      : 0;
    const limit = Math.min(Number(params.limit) || 100, this.pageSize);
    const page = visible.slice(start, start + limit);
    const next = start + limit < visible.length ? Buffer.from(`offset:${start + limit}`).toString('base64') : '';
    return {
      ok: true,
      channels: page.map((c) => ({ id: c.id, name: c.name, name_normalized: c.name, is_channel: true, is_private: !!c.is_private, is_archived: !!c.archived, is_member: c.member !== false })),
      response_metadata: { next_cursor: next },
    };
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseParams(contentType: string | null, body: Buffer): Promise<Record<string, string>> {
  if (body.length === 0) return {};
  if (contentType?.startsWith('application/json')) {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  }
  if (contentType?.startsWith('multipart/form-data')) {
    return Object.fromEntries((await formEntries(contentType, body)).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
  const parsed = parseQuery(body.toString('utf8'));
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
}

/** A multipart/form-data body's fields, parsed by Node's own fetch implementation. */
async function formEntries(contentType: string, body: Buffer): Promise<[string, FormDataEntryValue][]> {
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, key) => entries.push([key, value]));
  return entries;
}

function json(res: ServerResponse, value: unknown): void {
  send(res, 200, 'application/json; charset=utf-8', JSON.stringify(value));
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}
