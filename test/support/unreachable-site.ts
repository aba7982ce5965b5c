import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The flaws a certificate of this site can have, one per HTTPS server. */
export type CertificateFlaw = 'expired' | 'self_signed' | 'wrong_host';

/** The expired certificate's last day: a fixed date, so the record's sentence can be asserted exactly. */
export const EXPIRED_ON = '2024-01-01';
/** The only name the wrong-host certificate is for. */
export const OTHER_HOST = 'other-host.test';

/**
 * Certificates made at test time with openssl (no key material in the repository), each with one flaw,
 * for `address`: expired (valid 2023-01-01 to 2024-01-01), self-signed (valid now, for the address) and
 * wrong host (valid now, for OTHER_HOST only). Each is self-signed, as a test cannot make the browsers
 * trust an authority; the agent's probe names the first flaw a person would fix (tls-certificate.ts).
 */
async function makeCertificates(dir: string, address: string): Promise<Record<CertificateFlaw, { key: Buffer; cert: Buffer }>> {
  const out: Partial<Record<CertificateFlaw, { key: Buffer; cert: Buffer }>> = {};
  const request = async (name: string, san: string): Promise<void> => {
    await run('openssl', [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      path.join(dir, `${name}.key`),
      '-subj',
      `/CN=${san.replace(/^\w+( Address)?:/, '')}`,
      '-addext',
      `subjectAltName=${san}`,
      '-out',
      path.join(dir, `${name}.csr`),
    ]);
  };
  // `openssl ca -selfsign` is how OpenSSL 3.0 sets a validity in the past (x509 -days only counts forward).
  fs.writeFileSync(
    path.join(dir, 'ca.cnf'),
    [
      '[ ca ]',
      'default_ca = test_ca',
      '[ test_ca ]',
      `database = ${path.join(dir, 'index.txt')}`,
      `new_certs_dir = ${dir}`,
      `serial = ${path.join(dir, 'serial')}`,
      'default_md = sha256',
      'policy = any_name',
      'copy_extensions = copy',
      'unique_subject = no',
      '[ any_name ]',
      'commonName = supplied',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'index.txt'), '');
  fs.writeFileSync(path.join(dir, 'serial'), '01\n');
  const sign = async (name: string, start: string, end: string): Promise<void> => {
    await run('openssl', [
      'ca',
      '-config',
      path.join(dir, 'ca.cnf'),
      '-selfsign',
      '-keyfile',
      path.join(dir, `${name}.key`),
      '-in',
      path.join(dir, `${name}.csr`),
      '-out',
      path.join(dir, `${name}.pem`),
      '-startdate',
      start,
      '-enddate',
      end,
      '-batch',
      '-notext',
    ]);
  };
  const ip = `IP:${address}`;
  await request('expired', ip);
  await sign('expired', '20230101000000Z', `${EXPIRED_ON.replaceAll('-', '')}000000Z`);
  // Valid from yesterday to a month ahead: today's certificate whatever the clock says.
  const stamp = (days: number): string => `${new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
  await request('self_signed', ip);
  await sign('self_signed', stamp(-1), stamp(30));
  await request('wrong_host', `DNS:${OTHER_HOST}`);
  await sign('wrong_host', stamp(-1), stamp(30));
  for (const flaw of ['expired', 'self_signed', 'wrong_host'] as const) {
    out[flaw] = { key: fs.readFileSync(path.join(dir, `${flaw}.key`)), cert: fs.readFileSync(path.join(dir, `${flaw}.pem`)) };
  }
  return out as Record<CertificateFlaw, { key: Buffer; cert: Buffer }>;
}

/** Each server's open connections, so that close() ends the ones no client will. */
const SOCKETS = new WeakMap<net.Server, Set<net.Socket>>();

const PAGE = (title: string): string => `<!doctype html><title>${title}</title><h1>${title}</h1>`;

/**
 * The pages of the honest-outcomes suite, on one address: HTTPS servers whose certificates each have one
 * flaw (and serve a page, so a browser that accepts them would capture it), an HTTP server answering
 * 404 and 500 pages (`/status/404`), a server that resets every connection, one that accepts and never
 * answers, and a port where nothing listens.
 */
export class UnreachableSite {
  private constructor(
    private readonly dir: string,
    private readonly servers: net.Server[],
    readonly address: string,
    readonly tls: Record<CertificateFlaw, string>,
    readonly pages: string,
    readonly resets: string,
    readonly silent: string,
    readonly refused: string,
  ) {}

  static async start(address: string): Promise<UnreachableSite> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-tls-'));
    const servers: net.Server[] = [];
    const listen = async <S extends net.Server>(server: S): Promise<string> => {
      servers.push(server);
      // The silent server's sockets never end on their own: close() destroys them (see close).
      const sockets = new Set<net.Socket>();
      server.on('connection', (socket: net.Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      SOCKETS.set(server, sockets);
      await new Promise<void>((resolve) => server.listen(0, address, resolve));
      return `${address}:${(server.address() as AddressInfo).port}`;
    };
    try {
      const certificates = await makeCertificates(dir, address);
      const page = (title: string) => (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(title));
      const tls = {} as Record<CertificateFlaw, string>;
      for (const flaw of ['expired', 'self_signed', 'wrong_host'] as const) {
        tls[flaw] = `https://${await listen(https.createServer(certificates[flaw], page(`certificate ${flaw}`)))}/`;
      }
      const pages = `http://${await listen(
        http.createServer((req, res) => {
          const code = Number(/^\/status\/(\d{3})$/.exec(req.url ?? '')?.[1] ?? 200);
          res.writeHead(code, { 'content-type': 'text/html' }).end(PAGE(`the site answered ${code}`));
        }),
      )}`;
      // RST at once: the "connection reset" a crashed or overloaded server gives.
      const resets = `http://${await listen(net.createServer((socket) => socket.resetAndDestroy()))}/`;
      // Accepts and never answers: the host that "did not answer in time".
      const silent = `http://${await listen(net.createServer((socket) => socket.on('error', () => undefined)))}/`;
      const closed = net.createServer();
      const closedAt = await listen(closed);
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      servers.splice(servers.indexOf(closed), 1);
      return new UnreachableSite(dir, servers, address, tls, pages, resets, silent, `https://${closedAt}/`);
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      for (const s of servers) s.close();
      throw err;
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            for (const socket of SOCKETS.get(s) ?? []) socket.destroy();
          }),
      ),
    );
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
