import { expect } from 'chai';
import type { BrowserName } from '../../core/capture-spec.js';
import type { ApiError } from '../../core/errors.js';
import { MemoryJobQueue } from '../../grid/queue/memory-job-queue.js';
import { MemoryNodeRegistry } from '../../grid/registry/memory-node-registry.js';
import { Admission } from '../../grid/scheduling/admission.js';
import { chromeNode } from '../support/node-status.js';

/** A queue for this test only: the in-process queue whose depth answers what the test sets, counting look-ups. */
class SetDepthTestQueue extends MemoryJobQueue {
  chrome = 0;
  lookups = 0;

  override depth(): Promise<Record<BrowserName, number>> {
    this.lookups += 1;
    return Promise.resolve({ chrome: this.chrome, firefox: 0, brave: 0 });
  }
}

const status = (result: PromiseSettledResult<unknown>): number | 'ok' => (result.status === 'fulfilled' ? 'ok' : (result.reason as ApiError).status);

/**
 * The queue depth is asked at most once per kept period, not per create; what the replica admitted meanwhile
 * counts at once, so its own creates cannot pass the backlog bound between two look-ups.
 */
describe('admission: the queue depth kept for a moment', function () {
  const KEPT_MS = 200;
  let queue: SetDepthTestQueue;
  let registry: MemoryNodeRegistry;

  beforeEach(async () => {
    queue = new SetDepthTestQueue();
    registry = new MemoryNodeRegistry({ ttlMs: 60_000 });
    await registry.heartbeat(chromeNode({ id: 'unit-node' }));
  });
  afterEach(async () => {
    await queue.close();
    await registry.close();
  });

  it('creates within the kept period share one look-up; the next period asks again', async () => {
    const admission = new Admission(queue, registry, 1_000, 5_000, KEPT_MS);
    for (let i = 0; i < 10; i += 1) await admission.admit(['chrome'], 1);
    expect(queue.lookups).to.equal(1);
    await new Promise((resolve) => setTimeout(resolve, KEPT_MS + 20));
    await admission.admit(['chrome'], 1);
    expect(queue.lookups).to.equal(2);
  });

  it('counts what it admitted since the look-up: the bound holds between look-ups, and room freed shows in the next', async () => {
    const admission = new Admission(queue, registry, 3, 5_000, KEPT_MS);
    queue.chrome = 1;
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => admission.admit(['chrome'], 1)));
    // 1 waiting + 2 admitted = 3, the bound: the third and fourth are refused, with no new look-up.
    expect(results.map(status)).to.deep.equal(['ok', 'ok', 429, 429]);
    expect(queue.lookups).to.equal(1);
    // The agents took every job: after the kept period the queue's answer frees the room.
    queue.chrome = 0;
    await new Promise((resolve) => setTimeout(resolve, KEPT_MS + 20));
    expect(status((await Promise.allSettled([admission.admit(['chrome'], 3)]))[0]!)).to.equal('ok');
    expect(status((await Promise.allSettled([admission.admit(['chrome'], 1)]))[0]!)).to.equal(429);
    expect(queue.lookups).to.equal(2);
  });
});
