import { createHash } from 'node:crypto';
import type { Config } from '../core/config/config.js';
import type { JobQueue } from '../core/contracts/job-queue.js';
import type { NodeRegistry } from '../core/contracts/node-registry.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import type { Logger } from '../core/logger.js';
import { createObjectStore } from '../core/storage/create-object-store.js';
import { connectNats } from './nats/connect.js';
import { MemoryJobQueue } from './queue/memory-job-queue.js';
import { NatsJobQueue } from './queue/nats-job-queue.js';
import { MemoryNodeRegistry } from './registry/memory-node-registry.js';
import { NatsNodeRegistry } from './registry/nats-node-registry.js';

/** The farm's shared parts of one process, and how to close them (in reverse order of opening). */
export interface FarmPartsHandle { queue: JobQueue; registry: NodeRegistry; objects: ObjectStore; close(): Promise<void> }

/** A node that missed three heartbeats is gone: one lost beat (a GC pause, a busy NATS) is not enough. */
const MISSED_BEATS_BEFORE_GONE = 3;

/**
 * Opens the queue, registry and object store a configuration asks for: NATS JetStream and KV when
 * NATS_URL is set (distributed), in-process otherwise (embedded); S3 when S3_ENDPOINT is set, a folder
 * in the data dir otherwise. The signing secret of filesystem links derives from the JWT secret.
 */
export async function openFarmParts(config: Config, jwtSecret: string, log: Logger, name: string): Promise<FarmPartsHandle> {
  const objects = createObjectStore({
    s3: config.s3,
    dataDir: config.dataDir,
    signingSecret: createHash('sha256').update(`object-links:${jwtSecret}`).digest('hex'),
    publicUrl: config.publicUrl,
  });
  await objects.init();
  const ttlMs = config.farm.heartbeatSeconds * 1000 * MISSED_BEATS_BEFORE_GONE;
  const tuning = { maxDeliveries: config.farm.maxDeliveries, logger: log };
  if (!config.natsUrl) {
    const queue = new MemoryJobQueue(tuning);
    const registry = new MemoryNodeRegistry({ ttlMs });
    return { queue, registry, objects, close: async () => { await registry.close(); await queue.close(); } };
  }
  const connection = await connectNats({ servers: config.natsUrl, name });
  const queue = new NatsJobQueue({ connection, prefix: config.natsPrefix, ...tuning });
  const registry = new NatsNodeRegistry({ connection, prefix: config.natsPrefix, ttlMs });
  return {
    queue, registry, objects,
    async close() {
      await registry.close();
      await queue.close();
      await connection.close();
    },
  };
}
