import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { nanos, type NatsConnection } from '@nats-io/transport-node';

/**
 * Opens (creating when missing) a KV bucket whose entries expire `ttlMs` after their last write, keeping
 * one revision per key. The client only applies the TTL when it creates the bucket; a bucket made with an
 * older setting gets the new TTL here, so changing it in the configuration takes effect.
 */
export async function openTtlBucket(nc: NatsConnection, bucket: string, ttlMs: number): Promise<KV> {
  const kv = await new Kvm(nc).create(bucket, { history: 1, ttl: ttlMs });
  const status = await kv.status();
  if (status.ttl !== ttlMs) {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.update(status.streamInfo.config.name, { max_age: nanos(ttlMs) });
  }
  return kv;
}
