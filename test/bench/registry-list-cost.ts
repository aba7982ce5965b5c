/**
 * What one NodeRegistry.list() and one listHeld() (the watched view admission reads) cost against NATS: the requests it sends (split into consumer creations
 * and the rest), the subscriptions it opens (an ordered consumer's delivery inbox) and its latency, with
 * NODES live nodes heartbeating every 100 ms meanwhile (as a farm does), a few of them draining.
 * Counts come from wrapping this connection's request/subscribe, so they are exact and independent of
 * machine load; latencies are wall time (quote the load average with them).
 *
 *   node dist/test/bench/registry-list-cost.js [nodes=8] [lists=200] [concurrency=4]   (NATS at 127.0.0.1:4222)
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '../../grid/nats/connect.js';
import { NatsNodeRegistry } from '../../grid/registry/nats-node-registry.js';
import type { NodeStatus } from '../../core/contracts/node-registry.js';

const NODES = Number(process.argv[2] ?? 8);
const LISTS = Number(process.argv[3] ?? 200);
const CONCURRENCY = Number(process.argv[4] ?? 4);
const TTL_MS = 3_000;

const prefix = `b${Date.now().toString(16).slice(-8)}`;
const nc = await connectNats({ servers: 'nats://127.0.0.1:4222', name: `shotfarm-bench-${prefix}` });
const counts = { requests: 0, consumerCreates: 0, subscriptions: 0 };
const request = nc.request.bind(nc);
nc.request = (subject, ...rest) => {
  // heartbeats are publishes, which the client sends as requests to the key's subject: not the look-up's
  if (!subject.startsWith('$KV.')) counts.requests++;
  if (subject.includes('.CONSUMER.CREATE')) counts.consumerCreates++;
  return request(subject, ...rest);
};
const subscribe = nc.subscribe.bind(nc);
nc.subscribe = (subject, ...rest) => {
  counts.subscriptions++;
  return subscribe(subject, ...rest);
};

const registry = new NatsNodeRegistry({ connection: nc, prefix, ttlMs: TTL_MS });
const status = (i: number): NodeStatus => ({
  id: `agent-${i}:8080`,
  host: `agent-${i}`,
  browsers: [{ name: 'chrome', version: '156.0', driver: 'playwright' }],
  countries: [],
  slots: 4,
  inFlight: i % 4,
  jobsDone: 0,
  failures: 0,
  startedAt: new Date().toISOString(),
  draining: false,
});
for (let i = 0; i < NODES; i++) await registry.heartbeat(status(i));
for (let i = 0; i < NODES; i += 4) await registry.requestDrain(status(i).id, true);
await registry.list(); // opens the buckets (and whatever else the registry keeps open) outside the counts
const beats = setInterval(() => {
  for (let i = 0; i < NODES; i++) registry.heartbeat(status(i)).catch(() => {});
}, 100);

/** LISTS look-ups through `lookup`, CONCURRENCY at a time: what each costs in requests and wall time. */
async function measure(name: string, lookup: () => Promise<NodeStatus[]>): Promise<void> {
  await lookup(); // builds whatever the look-up keeps (listHeld's watches) outside the counts
  const snapshot = { ...counts };
  const latencies: number[] = [];
  let next = 0;
  let wrong = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < LISTS) {
        const started = performance.now();
        const nodes = await lookup();
        latencies.push(performance.now() - started);
        if (nodes.length !== NODES || nodes.filter((n) => n.draining).length !== Math.ceil(NODES / 4)) wrong++;
      }
    }),
  );
  const per = (key: keyof typeof counts): string => ((counts[key] - snapshot[key]) / LISTS).toFixed(2);
  latencies.sort((a, b) => a - b);
  const at = (q: number): string => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
  console.log(`${LISTS} ${name} of ${NODES} nodes (${Math.ceil(NODES / 4)} draining), ${CONCURRENCY} at a time, heartbeats every 100 ms`);
  console.log(`  per look-up: consumer creations ${per('consumerCreates')}, subscriptions ${per('subscriptions')}, JetStream API requests ${per('requests')}`);
  console.log(`  latency ms: p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)}; look-ups with a wrong node or drain count: ${wrong}`);
}

// list() by request (the CLI, the metrics) and listHeld() from the watches (admission, issue 30), alternately.
for (let round = 0; round < 2; round++) {
  await measure('list()', () => registry.list());
  await measure('listHeld()', () => registry.listHeld());
}
clearInterval(beats);
console.log(
  `load average: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

await registry.close();
const jsm = await jetstreamManager(nc);
for (const name of [`KV_${prefix}_nodes`, `KV_${prefix}_node_drains`]) await jsm.streams.delete(name).catch(() => {});
await nc.close();
