import { KvWatchInclude, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { NodeStatus } from '../../core/contracts/node-registry.js';

const decoder = new TextDecoder();

/** A key's latest entry as the watch or the seed saw it: its revision orders the two. */
interface Held<T> {
  revision: number;
  value: T | null;
  /** when the entry expires in the bucket (its write + the TTL); never for the drain bucket */
  expiresAt: number;
}

/** What the view is fed from: the two buckets and a read of their current entries (the registry's own look-up). */
export interface NodeWatchSource {
  connection: NatsConnection;
  nodes: () => Promise<KV>;
  drains: () => Promise<KV>;
  /** the entries of both buckets now, by request (NatsNodeRegistry's keys and gets) */
  read: () => Promise<{ nodes: KvEntry[]; drains: KvEntry[] }>;
  ttlMs: number;
}

/**
 * The live nodes held in memory (issue 30), for admission, which asks on every create: two KV watches (the nodes'
 * and the drain requests' buckets) keep the view current, a few milliseconds behind the writes of other processes,
 * with no request per look-up. The watches start with updates only, then one read by request seeds the view;
 * an entry is kept only when its revision is newer than what the view holds, so a write between the two is not lost.
 *
 * The bucket's entries expire on the server without a message to watchers: the view drops a node whose last
 * heartbeat is older than the TTL itself (from the entry's time, or its arrival when the clocks disagree the
 * other way). When the connection drops (a NATS restart) or a watch ends, the view is dropped and the next
 * look-up builds it again, by request, once NATS is back.
 */
export class NodeWatch {
  private view: Promise<{ nodes: Map<string, Held<NodeStatus>>; drains: Map<string, Held<true>> }> | null = null;
  /** the watches of the view being built or held; a view dropped stops its own, whatever was built since */
  private stops: (() => void)[] = [];
  private closed = false;

  constructor(private readonly source: NodeWatchSource) {
    void (async () => {
      for await (const status of source.connection.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnect' || status.type === 'staleConnection') this.drop();
      }
    })().catch(() => undefined);
  }

  async list(): Promise<NodeStatus[]> {
    if (this.closed) throw new Error('node registry closed');
    if (!this.view) {
      const building = this.build();
      building.catch(() => {
        if (this.view === building) this.drop();
      });
      this.view = building;
    }
    const { nodes, drains } = await this.view;
    const now = Date.now();
    const live: NodeStatus[] = [];
    for (const [key, held] of nodes) {
      if (held.value === null || held.expiresAt <= now) continue;
      live.push({ ...held.value, draining: held.value.draining || drains.get(key)?.value === true });
    }
    return live.sort((a, b) => a.id.localeCompare(b.id));
  }

  close(): void {
    this.closed = true;
    this.drop();
  }

  private drop(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
    this.view = null;
  }

  private async build(): Promise<{ nodes: Map<string, Held<NodeStatus>>; drains: Map<string, Held<true>> }> {
    const stops = this.stops;
    const nodes = new Map<string, Held<NodeStatus>>();
    const drains = new Map<string, Held<true>>();
    const keep = <T>(into: Map<string, Held<T>>, entry: KvEntry, value: (e: KvEntry) => T, ttlMs: number): void => {
      const held = into.get(entry.key);
      if (held && held.revision >= entry.revision) return;
      const put = entry.operation === 'PUT' && entry.value.length > 0;
      into.set(entry.key, { revision: entry.revision, value: put ? value(entry) : null, expiresAt: Math.min(entry.created.getTime(), Date.now()) + ttlMs });
    };
    const status = (e: KvEntry): NodeStatus => JSON.parse(decoder.decode(e.value)) as NodeStatus;
    const follow = async <T>(kv: KV, into: Map<string, Held<T>>, value: (e: KvEntry) => T, ttlMs: number): Promise<void> => {
      const watch = await kv.watch({ include: KvWatchInclude.UpdatesOnly });
      stops.push(() => watch.stop());
      void (async () => {
        for await (const entry of watch) keep(into, entry, value, ttlMs);
      })()
        .catch(() => undefined)
        // A watch that ends (its consumer lost) leaves a view that no longer follows: drop it.
        .finally(() => {
          if (this.stops === stops) this.drop();
        });
    };
    const [nodesKv, drainsKv] = await Promise.all([this.source.nodes(), this.source.drains()]);
    await Promise.all([follow(nodesKv, nodes, status, this.source.ttlMs), follow(drainsKv, drains, () => true as const, Infinity)]);
    const now = await this.source.read();
    for (const entry of now.nodes) keep(nodes, entry, status, this.source.ttlMs);
    for (const entry of now.drains) keep(drains, entry, () => true as const, Infinity);
    return { nodes, drains };
  }
}
