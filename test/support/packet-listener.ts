import dgram from 'node:dgram';
import net from 'node:net';

/** What reached the listener: one entry per TCP connection or UDP datagram. */
export interface Arrival {
  protocol: 'tcp' | 'udp';
  address: '127.0.0.1' | '::1';
  bytes: number;
  first: string;
}

/** How many bytes of each arrival are kept for the failure message. */
const KEPT_BYTES = 120;

/**
 * An attacker's target on loopback: TCP and UDP sockets on 127.0.0.1 and ::1, all on ONE port, that count
 * every connection and datagram reaching them (and its bytes), keeping the first bytes of each so a failing
 * test says what got through (an HTTP request line, a STUN binding request, a QUIC initial). It never
 * answers: a connection is read until it closes, a datagram is only counted.
 */
export class PacketListener {
  private constructor(
    readonly port: number,
    readonly arrivals: readonly Arrival[],
    private readonly servers: net.Server[],
    private readonly udp: dgram.Socket[],
    private readonly sockets: Set<net.Socket>,
  ) {}

  static async start(): Promise<PacketListener> {
    // One port for the four sockets: take a free TCP port on 127.0.0.1 and retry when another is taken there.
    for (let attempt = 0; ; attempt++) {
      const sockets = new Set<net.Socket>();
      const arrivals: Arrival[] = [];
      const servers: net.Server[] = [];
      const udp: dgram.Socket[] = [];
      try {
        const first = await listenTcp('127.0.0.1', 0, arrivals, sockets);
        servers.push(first);
        const port = (first.address() as net.AddressInfo).port;
        servers.push(await listenTcp('::1', port, arrivals, sockets));
        udp.push(await bindUdp('udp4', '127.0.0.1', port, arrivals), await bindUdp('udp6', '::1', port, arrivals));
        return new PacketListener(port, arrivals, servers, udp, sockets);
      } catch (err) {
        for (const s of servers) s.close();
        for (const s of udp) s.close();
        if (attempt >= 20) throw err;
      }
    }
  }

  /** The UDP arrivals that are STUN messages (RFC 5389: the magic cookie 0x2112A442 at bytes 4-7): WebRTC's ICE. */
  stun(): Arrival[] {
    return this.arrivals.filter((a) => a.protocol === 'udp' && a.first.slice(4, 8) === '\x21\x12\xa4\x42');
  }

  /** A summary for a failure message: count per protocol and address, and the first bytes of the first few. */
  describe(): string {
    return this.arrivals
      .slice(0, 8)
      .map((a) => `${a.protocol} ${a.address} ${a.bytes} B: ${JSON.stringify(a.first)}`)
      .join('\n');
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all(this.servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await Promise.all(this.udp.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

function listenTcp(host: '127.0.0.1' | '::1', port: number, arrivals: Arrival[], sockets: Set<net.Socket>): Promise<net.Server> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const arrival: Arrival = { protocol: 'tcp', address: host, bytes: 0, first: '' };
    arrivals.push(arrival);
    socket.on('data', (chunk: Buffer) => {
      if (arrival.first.length < KEPT_BYTES) arrival.first += chunk.subarray(0, KEPT_BYTES - arrival.first.length).toString('latin1');
      arrival.bytes += chunk.length;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, ipv6Only: host === '::1' }, () => resolve(server));
  });
}

function bindUdp(type: 'udp4' | 'udp6', host: '127.0.0.1' | '::1', port: number, arrivals: Arrival[]): Promise<dgram.Socket> {
  const socket = dgram.createSocket({ type, ipv6Only: type === 'udp6' });
  socket.on('message', (msg) => arrivals.push({ protocol: 'udp', address: host, bytes: msg.length, first: msg.subarray(0, KEPT_BYTES).toString('latin1') }));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => resolve(socket));
  });
}
