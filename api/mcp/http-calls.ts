import type { QueryTree, QueryValue } from '../options/query-input.js';
import { McpCallError, type ApiRecord, type ShotfarmCalls } from './shotfarm-calls.js';

/** Where `shotfarm mcp` reaches the service: its base URL (http://localhost:8080) and an API key. */
export interface HttpTarget {
  api: string;
  key: string;
}

/** The query string of flat fields (repeated keys for lists), as GET /screenshot/create reads it. */
function queryString(fields: QueryTree): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of value as QueryValue[]) q.append(name, String(v));
  return q.toString();
}

/** The JSON body of flat fields: one value as itself, a list as a list (POST /batch/create, /monitor/create). */
const jsonBody = (fields: QueryTree): Record<string, unknown> => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Array.isArray(v) && v.length === 1 ? v[0] : v]));

/**
 * ShotfarmCalls over the HTTP API, for `shotfarm mcp` (stdio): the agent's process talks to a running
 * service with an API key, exactly as `shotfarm batch` does, so the service charges, limits and isolates
 * the calls as any client's.
 */
export class HttpCalls implements ShotfarmCalls {
  private readonly base: string;

  constructor(private readonly target: HttpTarget) {
    this.base = `${target.api.replace(/\/+$/, '')}/api/v1`;
  }

  private async fetch(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetch(`${this.base}${pathAndQuery}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'X-API-KEY': this.target.key } });
    } catch (err) {
      // A request the agent cancelled is said as such; a refused connection names the address tried.
      if (init.signal?.aborted) throw new McpCallError('The call was cancelled', 499);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new McpCallError(`cannot reach the shotfarm API at ${this.target.api} (${cause?.code ?? cause?.message ?? (err as Error).message}); is it running there? (shotfarm mcp --api URL)`, 0);
    }
  }

  /** The `data` of the API's success envelope; its error envelope thrown as an McpCallError. */
  private async data<T>(pathAndQuery: string, init: RequestInit = {}): Promise<T> {
    const res = await this.fetch(pathAndQuery, init);
    const body = (await res.json().catch(() => null)) as { success: boolean; data: T; error?: string; fields?: Record<string, string[]> } | null;
    if (body === null) throw new McpCallError(`the API at ${this.target.api} answered HTTP ${res.status} without JSON; is that shotfarm? (shotfarm mcp --api URL)`, res.status);
    if (!body.success) throw new McpCallError(body.error ?? `HTTP ${res.status}`, res.status, body.fields);
    return body.data;
  }

  private post<T>(path: string, fields: Record<string, unknown>): Promise<T> {
    return this.data<T>(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fields) });
  }

  /** A stored output's bytes; an error envelope thrown as for data(). */
  private async bytes(pathAndQuery: string): Promise<Buffer> {
    const res = await this.fetch(pathAndQuery);
    if (res.ok) return Buffer.from(await res.arrayBuffer());
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new McpCallError(body?.error ?? `HTTP ${res.status}`, res.status);
  }

  /**
   * Whether the service refuses the key (401 or 403 on GET /account/info): null when it takes it or cannot
   * be reached now (the tools will say so when called), else the API's sentence.
   */
  async keyRefused(): Promise<string | null> {
    try {
      await this.data('/account/info');
      return null;
    } catch (err) {
      return err instanceof McpCallError && (err.status === 401 || err.status === 403) ? err.message : null;
    }
  }

  async createScreenshots(fields: QueryTree): Promise<ApiRecord[]> {
    const data = await this.data<ApiRecord[] | ApiRecord>(`/screenshot/create?${queryString(fields)}`);
    // SHOTFARM_CLIENT_COMPAT=screenshotcenter answers one record as an object.
    return Array.isArray(data) ? data : [data];
  }

  screenshot(id: number, waitMs: number, signal: AbortSignal): Promise<ApiRecord> {
    return this.data<ApiRecord>(`/screenshot/info?id=${id}&wait=${Math.ceil(waitMs / 1000)}`, { signal });
  }

  image(id: number): Promise<Buffer> {
    return this.bytes(`/screenshot/thumbnail?id=${id}`);
  }

  async markdown(id: number): Promise<string> {
    return (await this.bytes(`/screenshot/markdown?id=${id}`)).toString('utf8');
  }

  imageLink(id: number): string {
    return `${this.base}/screenshot/thumbnail?id=${id}`;
  }

  async createBatch(urls: string[], fields: QueryTree): Promise<ApiRecord> {
    const data = await this.post<ApiRecord[] | ApiRecord>('/batch/create', { ...jsonBody(fields), urls });
    return (Array.isArray(data) ? data[0] : data) as ApiRecord;
  }

  batch(id: number): Promise<ApiRecord> {
    return this.data<ApiRecord>(`/batch/info?id=${id}`);
  }

  createMonitor(fields: QueryTree): Promise<ApiRecord> {
    return this.post<ApiRecord>('/monitor/create', jsonBody(fields));
  }

  devices(): Promise<Record<string, unknown>[]> {
    return this.data<Record<string, unknown>[]>('/device/list');
  }
}
