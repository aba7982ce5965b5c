import { connect, type NatsConnection } from '@nats-io/transport-node';

export type { NatsConnection };

export interface NatsConnectOptions {
  /** one URL or several (a cluster), e.g. `nats://127.0.0.1:4222` */
  servers: string | string[];
  /** how this client shows up in the server's connection list (`shotfarm-api`, `shotfarm-agent-<host>`) */
  name: string;
  /** how long the first connection may take before giving up */
  timeoutMs?: number;
}

/** A first connection either works within a few seconds on a LAN or the server is not there: fail fast. */
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/**
 * Opens the NATS connection a process shares between its queue and its registry. After the first
 * connection succeeds the client reconnects forever (`maxReconnectAttempts: -1`): an agent should ride
 * out a NATS restart rather than exit, and JetStream keeps the jobs meanwhile.
 * The caller owns the connection and closes it after the queue and registry are closed.
 */
export async function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  const nc = await connect({
    servers: options.servers,
    name: options.name,
    timeout: options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxReconnectAttempts: -1,
    // Issue 8: after a restart the server is back within seconds; try every second (the default is 2 s)
    // so the farm resumes about a second after NATS does, at one dial per second per process meanwhile.
    reconnectTimeWait: RECONNECT_WAIT_MS,
  });
  trackConnection(nc);
  return nc;
}

const RECONNECT_WAIT_MS = 1_000;

/** Whether each connection opened by connectNats is connected right now (false between disconnect and reconnect). */
const connectedNow = new WeakMap<NatsConnection, boolean>();

/**
 * Follows the connection's status events. While the client is disconnected (a NATS restart) it holds
 * requests until their timeout instead of failing them, so /readyz and the API would wait seconds for
 * an answer that is known already; callers ask `natsConnected()` first and fail fast instead.
 */
function trackConnection(nc: NatsConnection): void {
  connectedNow.set(nc, true);
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnecting' || status.type === 'staleConnection') connectedNow.set(nc, false);
      else if (status.type === 'reconnect') connectedNow.set(nc, true);
    }
  })().catch(() => undefined);
}

/**
 * False when the connection is closed, or is one of connectNats' and is disconnected now. A connection
 * opened elsewhere (the contract suites open their own) counts as connected until it is closed.
 */
export function natsConnected(nc: NatsConnection): boolean {
  return !nc.isClosed() && connectedNow.get(nc) !== false;
}
