import { expect } from 'chai';
import type { NodeStatus } from '../../core/contracts/node-registry.js';
import type { NatsConnection } from '../../grid/nats/connect.js';
import { NatsNodeRegistry } from '../../grid/registry/nats-node-registry.js';
import { waitFor } from './support/jobs.js';
import { NatsSandbox } from './support/nats-sandbox.js';

const TTL_MS = 1_000;

function nodeStatus(id: string): NodeStatus {
  return {
    id,
    host: 'agent.example',
    browsers: [{ name: 'chrome', version: '156.0', driver: 'playwright' }],
    countries: [],
    slots: 4,
    inFlight: 0,
    jobsDone: 0,
    failures: 0,
    startedAt: '2026-01-01T00:00:00.000Z',
    draining: false,
  };
}

/**
 * NatsNodeRegistry.listHeld (issue 30): what admission reads on every create, held in memory from watches of the
 * buckets. It follows other processes' heartbeats, drain requests, removals and expiry, and a look-up sends no
 * request once the view is built.
 */
describe('NatsNodeRegistry.listHeld: the registry held in memory from a watch', function () {
  this.timeout(20_000);
  const sandbox = new NatsSandbox();
  const open: NatsNodeRegistry[] = [];
  const registry = async (prefix: string): Promise<{ registry: NatsNodeRegistry; nc: NatsConnection }> => {
    const nc = await sandbox.connect();
    const r = new NatsNodeRegistry({ connection: nc, prefix, ttlMs: TTL_MS });
    open.push(r);
    return { registry: r, nc };
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
    await sandbox.closeConnections();
    await sandbox.deleteStreams();
  });

  it("follows another process's nodes, drain requests, removals and expiry, with no request per look-up", async () => {
    const prefix = sandbox.prefix();
    const { registry: agent } = await registry(prefix);
    const { registry: api, nc } = await registry(prefix);
    await agent.heartbeat(nodeStatus('agent-1'));
    await agent.requestDrain('agent-1', true);
    // Built by one read: what was there before the watch.
    expect((await api.listHeld()).map((n) => [n.id, n.draining])).to.deep.equal([['agent-1', true]]);

    let requests = 0;
    const request = nc.request.bind(nc);
    nc.request = (...args) => {
      requests++;
      return request(...args);
    };
    const ids = async (): Promise<string[][]> => (await api.listHeld()).map((n) => [n.id, String(n.draining)]);
    await agent.heartbeat(nodeStatus('agent-2'));
    await waitFor('agent-2 seen', async () => (await ids()).length === 2, 5_000);
    await agent.requestDrain('agent-1', false);
    await waitFor(
      'the drain withdrawn',
      async () =>
        JSON.stringify(await ids()) ===
        JSON.stringify([
          ['agent-1', 'false'],
          ['agent-2', 'false'],
        ]),
      5_000,
    );
    await agent.remove('agent-1');
    await waitFor('agent-1 removed', async () => JSON.stringify(await ids()) === JSON.stringify([['agent-2', 'false']]), 5_000);
    // agent-2 stops heartbeating: the server drops it without telling watchers, the view drops it after the TTL.
    const stopped = Date.now();
    await waitFor('agent-2 expired', async () => (await ids()).length === 0, 6 * TTL_MS);
    expect(Date.now() - stopped).to.be.at.least(TTL_MS - 300);
    expect(requests, 'requests sent by look-ups').to.equal(0);
  });

  it('refuses a look-up after close() at once', async () => {
    const { registry: api, nc } = await registry(sandbox.prefix());
    await api.listHeld();
    await api.close();
    let error: unknown;
    await api.listHeld().catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error).with.property('message', 'node registry closed');
    await nc.close();
  });
});
