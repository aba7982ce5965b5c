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
  return connect({
    servers: options.servers,
    name: options.name,
    timeout: options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxReconnectAttempts: -1,
  });
}
