import http from 'node:http';

/** An answer as the tests read it: the JSON body when it parses, else the text. */
export interface RawAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/**
 * Any method, any bytes, any headers, sent with node:http: fetch refuses TRACE and other methods the
 * hostile-input tests need, and rewrites some headers. The API key goes in X-API-KEY.
 */
export function rawRequest(baseUrl: string, key: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | null): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(`${baseUrl}${path}`), { method, headers: { 'X-API-KEY': key, ...headers, ...(body ? { 'Content-Length': String(body.length) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* shown as text */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: new Headers(res.headers as Record<string, string>) });
      });
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
