import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for a captcha verify endpoint (Turnstile/hCaptcha style): POST form `secret`,
 * `response`, `remoteip` → `{success}`. It accepts exactly one response token with the expected secret,
 * records every form it was sent, and can be told to fail as a broken verifier would (HTTP 500, no JSON).
 */
export class FakeCaptcha {
  readonly requests: Record<string, string>[] = [];
  broken = false;
  private readonly server: http.Server;

  private constructor(
    readonly secret: string,
    readonly goodToken: string,
  ) {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        this.requests.push(form);
        if (this.broken) return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('verifier down');
        const success = req.method === 'POST' && form.secret === this.secret && form.response === this.goodToken;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(success ? { success } : { success, 'error-codes': ['invalid-input-response'] }));
      });
    });
  }

  static async start(secret: string, goodToken: string): Promise<FakeCaptcha> {
    const fake = new FakeCaptcha(secret, goodToken);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/siteverify`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
