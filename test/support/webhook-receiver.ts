import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: any;
  verified: boolean;
  attempt: number;
}

/**
 * A webhook receiver as a customer would write one: it verifies every delivery's signature with the
 * standardwebhooks package and records what arrived. `answer` decides the HTTP status per request, so a
 * test can make it fail.
 */
export class WebhookReceiver {
  readonly events: ReceivedEvent[] = [];
  /** every request, verified or not, with its status answer */
  readonly requests: { id: string; status: number }[] = [];
  answer: (id: string, attempt: number) => number = () => 204;
  private server!: http.Server;

  private constructor(private readonly secret: string) {}

  static async start(secret: string): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(secret);
    receiver.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const id = String(req.headers['webhook-id'] ?? '');
        const attempt = receiver.requests.filter((r) => r.id === id).length + 1;
        let verified = false;
        let payload: any = null;
        try {
          payload = new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          payload = JSON.parse(body);
        }
        const status = receiver.answer(id, attempt);
        receiver.requests.push({ id, status });
        if (status < 300) receiver.events.push({ id, type: payload.type, timestamp: payload.timestamp, data: payload.data, verified, attempt });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? '' : 'receiver refuses');
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  ofType(type: string): ReceivedEvent[] {
    return this.events.filter((e) => e.type === type);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
