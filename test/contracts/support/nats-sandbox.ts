import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats, type NatsConnection } from '../../../grid/nats/connect.js';

/** The NATS the tests use: `make test-services` starts one here; NATS_URL points elsewhere. */
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * Throwaway NATS state for one test run: every stream and bucket a test creates is named after a prefix
 * that starts with this run's random token, and is deleted afterwards, so a service running on the same
 * NATS (prefix `shotfarm`) is never touched.
 */
export class NatsSandbox {
  /** `t` + 8 hex digits: a valid name token that no service prefix uses */
  readonly runToken = `t${randomBytes(4).toString('hex')}`;
  private count = 0;
  private readonly connections = new Set<NatsConnection>();

  /** A fresh prefix for one test: `<runToken>_<n>`. */
  prefix(): string {
    this.count += 1;
    return `${this.runToken}_${this.count}`;
  }

  async connect(): Promise<NatsConnection> {
    const nc = await connectNats({ servers: NATS_URL, name: `shotfarm-test-${this.runToken}` });
    this.connections.add(nc);
    return nc;
  }

  /** Closes a connection abruptly, as a process that dies does: nothing it held is acknowledged. */
  async kill(nc: NatsConnection): Promise<void> {
    this.connections.delete(nc);
    await nc.close();
  }

  async closeConnections(): Promise<void> {
    const open = [...this.connections];
    this.connections.clear();
    await Promise.all(open.map((nc) => nc.close()));
  }

  /** Deletes the streams (KV buckets are streams `KV_<bucket>`) whose name holds `token`. */
  async deleteStreams(token: string = this.runToken): Promise<void> {
    const nc = await connectNats({ servers: NATS_URL, name: `shotfarm-test-cleanup-${this.runToken}` });
    try {
      const jsm = await jetstreamManager(nc);
      const doomed: string[] = [];
      for await (const name of jsm.streams.names()) if (name.includes(`${token}_`)) doomed.push(name);
      await Promise.all(doomed.map((name) => jsm.streams.delete(name)));
    } finally {
      await nc.close();
    }
  }
}
