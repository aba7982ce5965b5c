import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** One message as the sink received it, its body decoded from the transfer encoding. */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  text: string;
  raw: string;
}

/**
 * A tiny SMTP server on 127.0.0.1 speaking just enough of RFC 5321 for nodemailer: greeting, EHLO/HELO,
 * MAIL FROM, RCPT TO, DATA (dot-terminated, dot-unstuffed), RSET, NOOP, QUIT. No TLS, no AUTH. With
 * `rejectRecipients` every RCPT TO is refused (550), as a relay refusing an address would.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private waiters: { count: number; resolve: () => void }[] = [];
  rejectRecipients = false;

  private constructor() {
    this.server = net.createServer((socket) => this.converse(socket));
  }

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves when `count` messages have arrived in all, or rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    if (this.received.length < count) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`SMTP sink: ${this.received.length} of ${count} messages after ${timeoutMs} ms`)), timeoutMs);
        this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    }
    return this.received;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private converse(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    const reply = (line: string): void => void socket.write(`${line}\r\n`);
    let buffer = '';
    let envelope: { from: string; to: string[] } = { from: '', to: [] };
    let data: string[] | null = null;
    reply('220 localhost ESMTP test sink');
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line === '.') {
            this.store(envelope, data.join('\r\n'));
            data = null;
            envelope = { from: '', to: [] };
            reply('250 2.0.0 queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-localhost\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
        else if (verb === 'HELO') reply('250 localhost');
        else if (verb === 'MAIL') {
          envelope.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 sender ok');
        } else if (verb === 'RCPT') {
          if (this.rejectRecipients) reply('550 5.1.1 no such mailbox here');
          else {
            envelope.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
            reply('250 2.1.5 recipient ok');
          }
        } else if (verb === 'DATA') {
          data = [];
          reply('354 end data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          envelope = { from: '', to: [] };
          reply('250 2.0.0 reset');
        } else if (verb === 'NOOP') reply('250 2.0.0 ok');
        else if (verb === 'QUIT') {
          reply('221 2.0.0 bye');
          socket.end();
        } else reply('502 5.5.2 command not implemented');
      }
    });
  }

  private store(envelope: { from: string; to: string[] }, raw: string): void {
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    this.received.push({ ...envelope, headers, text: decodeBody(raw.slice(split + 4), headers['content-transfer-encoding'] ?? '7bit'), raw });
    this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
  }
}

/** Undoes quoted-printable or base64 (what nodemailer picks for long or non-ASCII lines). */
function decodeBody(body: string, encoding: string): string {
  const e = encoding.toLowerCase();
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (e === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}
