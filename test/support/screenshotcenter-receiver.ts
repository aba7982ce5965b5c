import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScreenshotCenterDelivery {
  event: string;
  body: any;
  raw: string;
  headers: http.IncomingHttpHeaders;
  verified: boolean;
}

/**
 * A webhook receiver as users of the original service (ScreenshotCenter) wrote them, independent of
 * shotfarm's code: it reads the raw body, computes the hex HMAC-SHA256 of it with its secret, and compares
 * `sha256=<hex>` with X-ScreenshotCenter-Signature (or X-Signature, the name its help pages use) in
 * constant time; then it parses the flat JSON body.
 */
export class ScreenshotCenterReceiver {
  readonly deliveries: ScreenshotCenterDelivery[] = [];
  private server!: http.Server;

  private constructor(
    private readonly secret: string,
    private readonly header: 'x-screenshotcenter-signature' | 'x-signature',
  ) {}

  static async start(secret: string, header: 'x-screenshotcenter-signature' | 'x-signature' = 'x-screenshotcenter-signature'): Promise<ScreenshotCenterReceiver> {
    const receiver = new ScreenshotCenterReceiver(secret, header);
    receiver.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const expected = Buffer.from(`sha256=${createHmac('sha256', receiver.secret).update(raw).digest('hex')}`);
        const given = Buffer.from(String(req.headers[receiver.header] ?? ''));
        const verified = given.length === expected.length && timingSafeEqual(given, expected);
        receiver.deliveries.push({ event: String(req.headers['x-screenshotcenter-event'] ?? ''), body: JSON.parse(raw.toString('utf8')), raw: raw.toString('utf8'), headers: req.headers, verified });
        res.writeHead(verified ? 200 : 401).end();
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/screenshotcenter-hook`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
