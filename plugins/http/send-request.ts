import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { AppRunError, type AppEgress } from '../contract.js';

export interface SentResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A response body is read up to this size for error messages; receivers' answers beyond it are not ours to keep. */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * One HTTP(S) request to a user-chosen URL, connected through the run's guarded agents (the private-address
 * guard) and cancelled by `signal`. Redirects are NOT followed: a redirect to an internal address
 * would go around the guard, and a webhook receiver that moved should be reconfigured. Connection
 * failures become retryable AppRunErrors.
 */
export async function sendRequest(
  url: URL,
  opts: { method: string; headers: Record<string, string | number>; body?: Buffer | string | Readable; egress: AppEgress; signal: AbortSignal },
): Promise<SentResponse> {
  opts.signal.throwIfAborted();
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SentResponse>((resolve, reject) => {
    const req = client.request(url, { method: opts.method, headers: opts.headers, agent: opts.egress.agent(url.protocol), signal: opts.signal }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_BODY_BYTES) chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
        size += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => reject(new AppRunError(`${url.host}: the response broke off (${err.message})`, { cause: err })));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (opts.signal.aborted) reject(opts.signal.reason instanceof Error ? opts.signal.reason : new AppRunError('aborted', { cause: err }));
      // The guard's refusal is final: the address will still be private on the next attempt.
      else if (err.code === 'EPRIVATETARGET') reject(new AppRunError(err.message, { retryable: false, cause: err }));
      else reject(new AppRunError(`${url.host}: ${err.code ?? ''} ${err.message}`.trim(), { cause: err }));
    });
    if (opts.body === undefined || typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) req.end(opts.body);
    else opts.body.pipe(req);
  });
}
