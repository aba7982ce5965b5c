import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { NodeRegistry, NodeStatus } from '../../core/contracts/node-registry.js';
import { serviceUnavailable } from '../../core/errors.js';
import { natsConnected } from '../nats/connect.js';
import { openTtlBucket } from '../nats/kv-bucket.js';
import { assertPrefix } from '../nats/names.js';
import { NodeWatch } from './node-watch.js';

export interface NatsNodeRegistryOptions {
  /** the process's NATS connection; the caller closes it after the registry */
  connection: NatsConnection;
  /** the installation's prefix: the bucket is `<prefix>_nodes` */
  prefix: string;
  /** a node that has not heartbeaten for this long is gone (the bucket's TTL) */
  ttlMs: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The live nodes in a NATS KV bucket whose entries expire after the TTL: each heartbeat rewrites the
 * node's entry, so a node that stops heartbeating (crashed, cut off) disappears on its own, and `remove`
 * deletes it at once when it leaves cleanly. Expiry is the server's, so it works with no process watching.
 */
export class NatsNodeRegistry implements NodeRegistry {
  private bucket: Promise<KV> | undefined;
  private drainBucket: Promise<KV> | undefined;
  private jsm: Promise<JetStreamManager> | undefined;
  private closed = false;
  private readonly bucketName: string;
  private readonly drainBucketName: string;
  private readonly watch: NodeWatch;

  constructor(private readonly options: NatsNodeRegistryOptions) {
    if (!(options.ttlMs > 0)) throw new Error(`ttlMs must be positive, got ${options.ttlMs}`);
    this.bucketName = `${assertPrefix(options.prefix)}_nodes`;
    // Drain requests live apart, with no TTL: one must not expire while its node finishes long captures
    // (an expired request would read as withdrawn and the node would go back to taking jobs).
    this.drainBucketName = `${assertPrefix(options.prefix)}_node_drains`;
    this.watch = new NodeWatch({ connection: options.connection, nodes: () => this.kv(), drains: () => this.drains(), read: () => this.entries(), ttlMs: options.ttlMs });
  }

  async heartbeat(node: NodeStatus): Promise<void> {
    await (await this.kv()).put(nodeKey(node.id), encoder.encode(JSON.stringify(node)));
  }

  /**
   * The keys come from one stream-info request per bucket (the subjects that hold a message), then one
   * direct get per live node and per drain key of a live node. Every step is a plain request with a
   * timeout, so a look-up cannot hang, and none creates a consumer. `kv.keys()` did both wrong: it
   * creates and deletes an ordered consumer per call, and its iterator ends on a message reporting
   * 0 pending or on an idle heartbeat, so under heartbeat traffic it dropped live keys (13 lists in
   * 200 short, test/bench/registry-list-cost.ts) or waited on a last message that never came.
   */
  async list(): Promise<NodeStatus[]> {
    const [kv, drains, jsm] = await Promise.all([this.kv(), this.drains(), this.manager()]);
    const [nodeKeys, drainKeys] = await Promise.all([storedKeys(jsm, this.bucketName), storedKeys(jsm, this.drainBucketName)]);
    const entries = await Promise.all(nodeKeys.map((key) => kv.get(key)));
    const nodes: NodeStatus[] = [];
    for (const entry of entries) {
      // An entry deleted, purged (its marker stays a subject) or expired between listing and reading is gone: skip it.
      if (entry && entry.operation === 'PUT' && entry.value.length > 0) nodes.push(JSON.parse(decoder.decode(entry.value)) as NodeStatus);
    }
    const withDrainKey = new Set(drainKeys);
    const requested = await Promise.all(
      nodes.map(async (n) => {
        if (n.draining) return true;
        if (!withDrainKey.has(nodeKey(n.id))) return false;
        return isPut(await drains.get(nodeKey(n.id)));
      }),
    );
    return nodes.map((n, i) => ({ ...n, draining: requested[i] as boolean })).sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * The live nodes as held in memory from watches of the buckets (NodeWatch): no request per look-up, a few
   * milliseconds behind other processes' writes. Unreachable NATS answers 503 at once, as list() does.
   */
  async listHeld(): Promise<NodeStatus[]> {
    if (this.closed) throw new Error('node registry closed');
    if (!natsConnected(this.options.connection)) throw serviceUnavailable('The node registry (NATS) is unreachable; try again shortly');
    return this.watch.list();
  }

  async remove(id: string): Promise<void> {
    // purge, not delete: no tombstone revision is left behind for a node that is gone for good.
    await (await this.kv()).purge(nodeKey(id));
    await (await this.drains()).purge(nodeKey(id));
  }

  async requestDrain(id: string, drain: boolean): Promise<boolean> {
    const entry = await (await this.kv()).get(nodeKey(id));
    if (!entry || entry.operation !== 'PUT' || entry.value.length === 0) return false;
    const drains = await this.drains();
    if (drain) await drains.put(nodeKey(id), encoder.encode(new Date().toISOString()));
    else await drains.purge(nodeKey(id));
    return true;
  }

  async drainRequested(id: string): Promise<boolean> {
    return isPut(await (await this.drains()).get(nodeKey(id)));
  }

  /** Stops using the bucket; the entries stay (they expire), and the connection is the caller's. */
  async close(): Promise<void> {
    this.closed = true;
    this.watch.close();
    this.bucket = undefined;
    this.drainBucket = undefined;
    this.jsm = undefined;
  }

  /** Every entry of both buckets now, by request (the keys from the streams, then one get each): NodeWatch's seed. */
  private async entries(): Promise<{ nodes: KvEntry[]; drains: KvEntry[] }> {
    const [kv, drains, jsm] = await Promise.all([this.kv(), this.drains(), this.manager()]);
    const [nodeKeys, drainKeys] = await Promise.all([storedKeys(jsm, this.bucketName), storedKeys(jsm, this.drainBucketName)]);
    const present = (entries: (KvEntry | null)[]): KvEntry[] => entries.filter((e): e is KvEntry => e !== null);
    return {
      nodes: present(await Promise.all(nodeKeys.map((key) => kv.get(key)))),
      drains: present(await Promise.all(drainKeys.map((key) => drains.get(key)))),
    };
  }

  private manager(): Promise<JetStreamManager> {
    if (this.closed) return Promise.reject(new Error('node registry closed'));
    if (!natsConnected(this.options.connection)) return Promise.reject(serviceUnavailable('The node registry (NATS) is unreachable; try again shortly'));
    if (!this.jsm) {
      // checkAPI off: the buckets' opening already proved JetStream is there; no account-info request per registry.
      const opening = jetstreamManager(this.options.connection, { checkAPI: false });
      opening.catch(() => {
        if (this.jsm === opening) this.jsm = undefined;
      });
      this.jsm = opening;
    }
    return this.jsm;
  }

  private drains(): Promise<KV> {
    if (this.closed) return Promise.reject(new Error('node registry closed'));
    if (!natsConnected(this.options.connection)) return Promise.reject(serviceUnavailable('The node registry (NATS) is unreachable; try again shortly'));
    if (!this.drainBucket) {
      const opening = new Kvm(this.options.connection).create(this.drainBucketName, { history: 1 });
      opening.catch(() => {
        if (this.drainBucket === opening) this.drainBucket = undefined;
      });
      this.drainBucket = opening;
    }
    return this.drainBucket;
  }

  private kv(): Promise<KV> {
    if (this.closed) return Promise.reject(new Error('node registry closed'));
    // While NATS is down a KV request waits out its timeout; fail at once with a 503 the API can pass on
    // (admission reads the registry on every create), rather than hang the request (issue 8).
    if (!natsConnected(this.options.connection)) return Promise.reject(serviceUnavailable('The node registry (NATS) is unreachable; try again shortly'));
    if (!this.bucket) {
      const opening = openTtlBucket(this.options.connection, this.bucketName, this.options.ttlMs);
      // A failed open (NATS down) is retried by the next call instead of being remembered.
      opening.catch(() => {
        if (this.bucket === opening) this.bucket = undefined;
      });
      this.bucket = opening;
    }
    return this.bucket;
  }
}

/**
 * KV keys allow only letters, digits and `-/_=.`; node ids are host names with ports or pids and may
 * hold anything else. base64url maps any id onto allowed characters, one-to-one.
 */
const nodeKey = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

const isPut = (entry: KvEntry | null): boolean => entry !== null && entry.operation === 'PUT' && entry.value.length > 0;

/**
 * The keys of a KV bucket that hold a message (a value, or a delete/purge marker), from the stream's
 * per-subject counts: one request (paged by the client past the server's page size), no consumer.
 * Entries the server has expired are no longer subjects of the stream.
 */
async function storedKeys(jsm: JetStreamManager, bucket: string): Promise<string[]> {
  const subjectPrefix = `$KV.${bucket}.`;
  const info = await jsm.streams.info(`KV_${bucket}`, { subjects_filter: `${subjectPrefix}>` });
  return Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(subjectPrefix.length));
}
