import net from 'node:net';
import tls from 'node:tls';
import { ipv6Groups } from '../../core/net/ip-ranges.js';

/** How long opening a connection (and a tunnel through a country proxy) may take: a page load's patience. */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Opens a TCP connection to exactly `address:port` (an IP address the guard has checked), directly or
 * through the capture's country proxy. Through a proxy the tunnel's target is the checked ADDRESS, not the
 * host name, so the proxy never resolves the name again: an http(s) proxy gets `CONNECT address:port`,
 * a socks5 proxy a CONNECT to the address. (For the residual risk, see README "SSRF protection".)
 */
export async function openConnection(address: string, port: number, upstream: string | null): Promise<net.Socket> {
  if (upstream === null) return connected(net.connect({ host: address, port }));
  const proxy = new URL(upstream);
  const proxyPort = Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : proxy.protocol === 'socks5:' ? 1080 : 80);
  const proxyHost = proxy.hostname.replace(/^\[(.*)\]$/, '$1');
  const socket =
    proxy.protocol === 'https:'
      ? await connected(tls.connect({ host: proxyHost, port: proxyPort, servername: net.isIP(proxyHost) ? undefined : proxyHost }), 'secureConnect')
      : await connected(net.connect({ host: proxyHost, port: proxyPort }));
  try {
    if (proxy.protocol === 'socks5:') await socksConnect(socket, address, port, proxy);
    else await httpConnect(socket, address, port, proxy);
    return socket;
  } catch (err) {
    socket.destroy();
    throw err;
  }
}

function connected<T extends net.Socket>(socket: T, event: 'connect' | 'secureConnect' = 'connect'): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => socket.destroy(new Error('connection timed out')), CONNECT_TIMEOUT_MS);
    socket.once(event, () => {
      clearTimeout(timer);
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Reads from the socket until `enough` says the answer is complete; returns all bytes read. */
function readUntil(socket: net.Socket, enough: (data: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error('the country proxy did not answer in time')), CONNECT_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      data = Buffer.concat([data, chunk]);
      if (enough(data)) done(null);
    };
    const onEnd = (): void => done(new Error('the country proxy closed the connection'));
    const done = (err: Error | null): void => {
      clearTimeout(timer);
      socket.off('data', onData).off('error', done).off('end', onEnd);
      socket.pause();
      if (err) reject(err);
      else resolve(data);
    };
    socket.on('data', onData).on('error', done).on('end', onEnd);
    socket.resume();
  });
}

function hostPort(address: string, port: number): string {
  return net.isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`;
}

async function httpConnect(socket: net.Socket, address: string, port: number, proxy: URL): Promise<void> {
  const auth = proxy.username ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n` : '';
  socket.write(`CONNECT ${hostPort(address, port)} HTTP/1.1\r\nHost: ${hostPort(address, port)}\r\n${auth}\r\n`);
  const answer = await readUntil(socket, (d) => d.includes('\r\n\r\n'));
  const end = answer.indexOf('\r\n\r\n') + 4;
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer.subarray(0, end).toString('latin1'))?.[1];
  if (status !== '200') throw new Error(`the country proxy refused the tunnel (${status ?? 'no status'})`);
  // Bytes past the proxy's answer already belong to the destination: hand them back to the stream.
  if (answer.length > end) socket.unshift(answer.subarray(end));
}

/** SOCKS5 (RFC 1928) CONNECT to an address, with RFC 1929 username/password when the proxy URL has them. */
async function socksConnect(socket: net.Socket, address: string, port: number, proxy: URL): Promise<void> {
  const NO_AUTH = 0x00;
  const USER_PASS = 0x02;
  const user = Buffer.from(decodeURIComponent(proxy.username));
  const pass = Buffer.from(decodeURIComponent(proxy.password));
  socket.write(Buffer.from([0x05, 1, user.length > 0 ? USER_PASS : NO_AUTH]));
  const method = await readUntil(socket, (d) => d.length >= 2);
  if (method[1] === USER_PASS) {
    socket.write(Buffer.concat([Buffer.from([0x01, user.length]), user, Buffer.from([pass.length]), pass]));
    const status = await readUntil(socket, (d) => d.length >= 2);
    if (status[1] !== 0) throw new Error('the country proxy refused its credentials');
  } else if (method[1] !== NO_AUTH) {
    throw new Error('the country proxy asks for an authentication method shotfarm does not speak');
  }
  const v4 = net.isIPv4(address);
  const ipBytes = v4 ? Buffer.from(address.split('.').map(Number)) : ipv6Bytes(address);
  const portBytes = Buffer.from([port >> 8, port & 0xff]);
  // VER CMD=CONNECT RSV ATYP (1 = IPv4, 4 = IPv6) ADDR PORT
  socket.write(Buffer.concat([Buffer.from([0x05, 0x01, 0x00, v4 ? 0x01 : 0x04]), ipBytes, portBytes]));
  // The reply's length depends on its address type: 4 + address (4, 16 or 1 + length) + 2 port bytes.
  const reply = await readUntil(socket, (d) => d.length >= 5 && d.length >= 6 + (d[3] === 0x01 ? 4 : d[3] === 0x04 ? 16 : 1 + (d[4] ?? 0)));
  if (reply[1] !== 0) throw new Error(`the country proxy could not connect (SOCKS reply ${reply[1] ?? '?'})`);
}

function ipv6Bytes(address: string): Buffer {
  const bytes = Buffer.alloc(16);
  ipv6Groups(address).forEach((g, i) => bytes.writeUInt16BE(g, i * 2));
  return bytes;
}
