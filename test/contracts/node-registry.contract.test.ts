import { expect } from 'chai';
import type { NodeRegistry, NodeStatus } from '../../core/contracts/node-registry.js';
import { MemoryNodeRegistry } from '../../grid/registry/memory-node-registry.js';
import { NatsNodeRegistry } from '../../grid/registry/nats-node-registry.js';
import { sleep, waitFor } from './support/jobs.js';
import { NatsSandbox } from './support/nats-sandbox.js';
import type { NatsConnection } from '../../grid/nats/connect.js';

/**
 * 1 s: the shortest TTL whose expiry can be told apart from test overhead on a busy 2-core machine;
 * NATS removes expired entries about 0.1 s after they age out.
 */
const TTL_MS = 1_000;

interface RegistryFactory {
  name: string;
  create(ttlMs: number): Promise<NodeRegistry>;
  cleanup(): Promise<void>;
  teardown(): Promise<void>;
}

function nodeStatus(id: string, overrides: Partial<NodeStatus> = {}): NodeStatus {
  return {
    id,
    host: 'agent-1.example',
    browsers: [
      { name: 'chrome', version: '156.0', driver: 'playwright' },
      { name: 'firefox', version: '140.0', driver: 'selenium' },
    ],
    countries: ['fr'],
    slots: 4,
    inFlight: 0,
    jobsDone: 0,
    failures: 0,
    startedAt: '2026-01-01T00:00:00.000Z',
    draining: false,
    ...overrides,
  };
}

export function nodeRegistryContract(factory: RegistryFactory): void {
  describe(`NodeRegistry contract: ${factory.name}`, function () {
    this.timeout(20_000);
    afterEach(() => factory.cleanup());
    after(() => factory.teardown());

    it('lists the nodes that heartbeat, with their latest status', async () => {
      const registry = await factory.create(TTL_MS * 10);
      expect(await registry.list()).to.deep.equal([]);
      // Ids are host names with ports and pids: characters a KV key may not hold must still work.
      const a = nodeStatus('agent-1.example:8080/pid 41');
      const b = nodeStatus('agent-2', { countries: [] });
      await registry.heartbeat(a);
      await registry.heartbeat(b);
      await registry.heartbeat({ ...a, inFlight: 3, jobsDone: 12, draining: true });
      expect(await registry.list()).to.deep.equal([{ ...a, inFlight: 3, jobsDone: 12, draining: true }, b]);
    });

    it('forgets a node that stops heartbeating after the TTL, and keeps one that goes on', async () => {
      const registry = await factory.create(TTL_MS);
      const started = Date.now();
      await registry.heartbeat(nodeStatus('silent'));
      await registry.heartbeat(nodeStatus('alive'));
      let goneAfter = 0;
      // 6 TTLs: room for a loaded machine; NATS needs about 1.1 TTL.
      while (Date.now() - started < 6 * TTL_MS) {
        const beatAt = Date.now();
        await registry.heartbeat(nodeStatus('alive'));
        const ids = (await registry.list()).map((n) => n.id);
        // Only meaningful if the list came back within the TTL of the heartbeat (a stalled test process
        // may take longer, and then the node has rightly expired).
        if (Date.now() - beatAt < TTL_MS) expect(ids, 'a heartbeating node stays').to.include('alive');
        if (!ids.includes('silent')) {
          goneAfter = Date.now() - started;
          break;
        }
        await sleep(TTL_MS / 5);
      }
      expect(goneAfter, 'the silent node disappeared').to.be.greaterThan(0);
      expect(goneAfter, 'not before its TTL').to.be.at.least(TTL_MS - 50);
      await waitFor('the last node to expire too', async () => (await registry.list()).length === 0, 6 * TTL_MS);
    });

    it('removes a node at once', async () => {
      const registry = await factory.create(TTL_MS * 10);
      await registry.heartbeat(nodeStatus('leaving'));
      await registry.heartbeat(nodeStatus('staying'));
      await registry.remove('leaving');
      expect((await registry.list()).map((n) => n.id)).to.deep.equal(['staying']);
      await registry.remove('never-seen');
      await registry.heartbeat(nodeStatus('leaving'));
      expect((await registry.list()).map((n) => n.id)).to.deep.equal(['leaving', 'staying']);
    });

    it('carries a drain request to the node until withdrawn or the node leaves; a node not live cannot be asked', async () => {
      const registry = await factory.create(TTL_MS * 10);
      const id = 'agent-1.example:8080/pid 41';
      await registry.heartbeat(nodeStatus(id));
      await registry.heartbeat(nodeStatus('other'));
      expect(await registry.drainRequested(id)).to.equal(false);
      expect(await registry.requestDrain('never-seen', true), 'no such live node').to.equal(false);
      expect(await registry.drainRequested('never-seen')).to.equal(false);

      expect(await registry.requestDrain(id, true)).to.equal(true);
      expect(await registry.drainRequested(id)).to.equal(true);
      expect(await registry.drainRequested('other')).to.equal(false);
      // Shown draining at once, though the node's own last heartbeat still said otherwise.
      expect((await registry.list()).map((n) => [n.id, n.draining])).to.deep.equal([
        [id, true],
        ['other', false],
      ]);
      // Its heartbeats do not clear the request (only a withdrawal or its leaving does).
      await registry.heartbeat(nodeStatus(id, { inFlight: 2 }));
      expect(await registry.drainRequested(id)).to.equal(true);

      expect(await registry.requestDrain(id, false)).to.equal(true);
      expect(await registry.drainRequested(id)).to.equal(false);
      expect((await registry.list()).map((n) => n.draining)).to.deep.equal([false, false]);

      await registry.requestDrain(id, true);
      await registry.remove(id);
      expect(await registry.drainRequested(id), 'leaving clears the request').to.equal(false);
      await registry.heartbeat(nodeStatus(id));
      expect(
        (await registry.list()).map((n) => n.draining),
        'the node back under the same id is not draining',
      ).to.deep.equal([false, false]);
    });
  });
}

function memoryFactory(): RegistryFactory {
  const open: NodeRegistry[] = [];
  return {
    name: 'MemoryNodeRegistry',
    async create(ttlMs) {
      const registry = new MemoryNodeRegistry({ ttlMs });
      open.push(registry);
      return registry;
    },
    async cleanup() {
      await Promise.all(open.splice(0).map((r) => r.close()));
    },
    async teardown() {},
  };
}

function natsFactory(): RegistryFactory {
  const sandbox = new NatsSandbox();
  const open: NodeRegistry[] = [];
  return {
    name: 'NatsNodeRegistry',
    async create(ttlMs) {
      const registry = new NatsNodeRegistry({ connection: await sandbox.connect(), prefix: sandbox.prefix(), ttlMs });
      open.push(registry);
      return registry;
    },
    async cleanup() {
      await Promise.all(open.splice(0).map((r) => r.close()));
      await sandbox.closeConnections();
      await sandbox.deleteStreams();
    },
    async teardown() {
      await sandbox.deleteStreams();
    },
  };
}

nodeRegistryContract(memoryFactory());
nodeRegistryContract(natsFactory());

/**
 * What the NATS registry adds: several processes (API, agents) share the buckets through their own
 * registries, and admission calls list() on every create, so a look-up must create no consumer (kv.keys()
 * created and deleted one per call and could miss keys or never end under heartbeat traffic).
 */
describe('NatsNodeRegistry across processes, and what a look-up costs', function () {
  this.timeout(20_000);
  const sandbox = new NatsSandbox();
  const open: NodeRegistry[] = [];
  const registry = async (prefix: string, ttlMs: number): Promise<{ registry: NatsNodeRegistry; nc: NatsConnection }> => {
    const nc = await sandbox.connect();
    const r = new NatsNodeRegistry({ connection: nc, prefix, ttlMs });
    open.push(r);
    return { registry: r, nc };
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
    await sandbox.closeConnections();
    await sandbox.deleteStreams();
  });

  it("sees another process's nodes, drain requests and their expiry", async () => {
    const prefix = sandbox.prefix();
    const { registry: agent } = await registry(prefix, TTL_MS);
    const { registry: api } = await registry(prefix, TTL_MS);
    await agent.heartbeat(nodeStatus('agent-1'));
    await agent.heartbeat(nodeStatus('agent-2'));
    expect((await api.list()).map((n) => [n.id, n.draining])).to.deep.equal([
      ['agent-1', false],
      ['agent-2', false],
    ]);
    expect(await api.requestDrain('agent-2', true)).to.equal(true);
    expect(await agent.drainRequested('agent-2'), 'the agent reads the request').to.equal(true);
    expect((await agent.list()).map((n) => [n.id, n.draining])).to.deep.equal([
      ['agent-1', false],
      ['agent-2', true],
    ]);
    // agent-1 goes on heartbeating, agent-2 stops: the API's list forgets it after the TTL.
    const started = Date.now();
    await waitFor(
      'agent-2 to expire',
      async () => {
        await agent.heartbeat(nodeStatus('agent-1'));
        return !(await api.list()).some((n) => n.id === 'agent-2');
      },
      6 * TTL_MS,
    );
    expect(Date.now() - started, 'not before its TTL').to.be.at.least(TTL_MS - 50);
    expect((await api.list()).map((n) => n.id)).to.deep.equal(['agent-1']);
  });

  it('lists without creating a consumer or subscription, the same under heartbeat traffic', async () => {
    const prefix = sandbox.prefix();
    const { registry: agent } = await registry(prefix, TTL_MS * 10);
    const { registry: api, nc } = await registry(prefix, TTL_MS * 10);
    const ids = Array.from({ length: 6 }, (_, i) => `agent-${i}`);
    for (const id of ids) await agent.heartbeat(nodeStatus(id));
    await agent.requestDrain('agent-3', true);
    await api.list(); // opens the buckets
    const sent: string[] = [];
    const request = nc.request.bind(nc);
    nc.request = (subject, ...rest) => {
      sent.push(subject);
      return request(subject, ...rest);
    };
    const subscribe = nc.subscribe.bind(nc);
    let subscriptions = 0;
    nc.subscribe = (subject, ...rest) => {
      subscriptions++;
      return subscribe(subject, ...rest);
    };
    let beating = true;
    const beats = (async () => {
      while (beating) await Promise.all(ids.map((id) => agent.heartbeat(nodeStatus(id))));
    })();
    try {
      for (let i = 0; i < 30; i++) {
        const listed = await api.list();
        expect(
          listed.map((n) => n.id),
          `list ${i} sees every live node`,
        ).to.deep.equal(ids);
        expect(listed.filter((n) => n.draining).map((n) => n.id)).to.deep.equal(['agent-3']);
      }
    } finally {
      beating = false;
      await beats;
    }
    expect(
      sent.filter((s) => s.includes('.CONSUMER.')),
      'no consumer created or deleted',
    ).to.deep.equal([]);
    expect(subscriptions, 'no delivery subscription').to.equal(0);
    // 2 stream infos + 6 node gets + 1 drain get (only the node with a drain key).
    expect(sent.length / 30, 'requests per list').to.equal(9);
  });

  it('rejects list() after close() at once instead of waiting on NATS', async () => {
    const { registry: r } = await registry(sandbox.prefix(), TTL_MS * 10);
    await r.heartbeat(nodeStatus('agent-1'));
    await r.close();
    const started = Date.now();
    let error: unknown;
    await r.list().catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error).with.property('message', 'node registry closed');
    expect(Date.now() - started).to.be.below(1_000);
  });
});
