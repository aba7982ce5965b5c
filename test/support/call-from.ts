import http from 'node:http';
import type { Answer } from './auth-helpers.js';

/**
 * A JSON POST to the test API from a chosen loopback address (any of 127.0.0.0/8 on Linux), so a test can
 * be a client, or a reverse proxy, with an address of its own: the API sees it as the connection's peer,
 * exactly as it would see a real client's.
 */
export function postFrom(localAddress: string, base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(`${base}${path}`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: the assertion shows the text
          }
          const answerHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') answerHeaders.set(k, v);
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: answerHeaders });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
