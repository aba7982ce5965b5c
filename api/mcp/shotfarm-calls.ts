import type { QueryTree } from '../options/query-input.js';

/** A record as the API answers it (Screenshot, Batch, Monitor): the tools read a few fields and hand the rest on. */
export type ApiRecord = Record<string, unknown> & { id: number; status?: string; error?: string };

/**
 * What the MCP tools ask of shotfarm, with the account's credential already bound: `shotfarm mcp` answers
 * it over the HTTP API (http-calls.ts), /api/v1/mcp with the control plane's services in process
 * (service-calls.ts), so the tools (mcp-tools.ts) are written once and both charge, limit and isolate as the
 * API does. A refusal is thrown as an McpCallError with the API's own sentence.
 */
export interface ShotfarmCalls {
  /** GET /screenshot/create with these fields: the new records (one per url × country) */
  createScreenshots(fields: QueryTree): Promise<ApiRecord[]>;
  /** GET /screenshot/info: the record, once it left `processing` or after at most `waitMs` */
  screenshot(id: number, waitMs: number, signal: AbortSignal): Promise<ApiRecord>;
  /** the first stored image of a finished record */
  image(id: number): Promise<Buffer>;
  /** GET /screenshot/markdown: the page's Markdown of a finished record captured with markdown=1 */
  markdown(id: number): Promise<string>;
  /** a link that opens the record's image (signed when the service can sign it, else one that needs the key) */
  imageLink(id: number): string;
  /** POST /batch/create with these URLs and fields */
  createBatch(urls: string[], fields: QueryTree): Promise<ApiRecord>;
  /** GET /batch/info */
  batch(id: number): Promise<ApiRecord>;
  /** POST /monitor/create */
  createMonitor(fields: QueryTree): Promise<ApiRecord>;
  /** GET /device/list */
  devices(): Promise<Record<string, unknown>[]>;
}

/** A refusal of the API (its status, its sentence and the fields it names), said to the agent as a tool error. */
export class McpCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }

  /** The sentence an agent reads: the API's message and each field's problems. */
  describe(): string {
    const fields = Object.entries(this.fields).map(([k, v]) => `${k} ${v.join('; ')}`);
    return fields.length > 0 ? `${this.message}: ${fields.join(', ')}` : this.message;
  }
}
