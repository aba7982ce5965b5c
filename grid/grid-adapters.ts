import type { AdapterCatalog, AdapterContext } from '../core/di/adapters.js';
import { connectNats, type NatsConnection } from './nats/connect.js';
import { MemoryJobQueue } from './queue/memory-job-queue.js';
import { NatsJobQueue } from './queue/nats-job-queue.js';
import { MemoryNodeRegistry } from './registry/memory-node-registry.js';
import { NatsNodeRegistry } from './registry/nats-node-registry.js';

/** A node that missed three heartbeats is gone: one lost beat (a GC pause, a busy NATS) is not enough. */
const MISSED_BEATS_BEFORE_GONE = 3;

/**
 * The farm's queue and registry (registered by core/di/adapters.ts, which picks them from the
 * configuration): NATS JetStream and KV, sharing one connection named `name`, or in-process (embedded).
 * One catalog per container: the connection is opened by the first NATS adapter and closed after the last.
 */
export function gridAdapters(name: string): Pick<AdapterCatalog, 'jobQueue' | 'nodeRegistry'> {
  let connection: Promise<NatsConnection> | null = null;
  const connect = (ctx: AdapterContext): Promise<NatsConnection> => {
    connection ??= (async () => {
      if (!ctx.config.natsUrl) throw new Error('the NATS adapters need NATS_URL');
      const nc = await connectNats({ servers: ctx.config.natsUrl, name });
      ctx.onClose(() => nc.close());
      return nc;
    })();
    return connection;
  };
  const ttlMs = (ctx: AdapterContext): number => ctx.config.farm.heartbeatSeconds * 1000 * MISSED_BEATS_BEFORE_GONE;
  const closing = <T extends { close(): Promise<void> }>(ctx: AdapterContext, adapter: T): T => {
    ctx.onClose(() => adapter.close());
    return adapter;
  };
  return {
    jobQueue: {
      memory: (ctx) => closing(ctx, new MemoryJobQueue({ maxDeliveries: ctx.config.farm.maxDeliveries, logger: ctx.log })),
      nats: async (ctx) => closing(ctx, new NatsJobQueue({ connection: await connect(ctx), prefix: ctx.config.natsPrefix, maxDeliveries: ctx.config.farm.maxDeliveries, logger: ctx.log })),
    },
    nodeRegistry: {
      memory: (ctx) => closing(ctx, new MemoryNodeRegistry({ ttlMs: ttlMs(ctx) })),
      nats: async (ctx) => closing(ctx, new NatsNodeRegistry({ connection: await connect(ctx), prefix: ctx.config.natsPrefix, ttlMs: ttlMs(ctx) })),
    },
  };
}
