import { expect } from 'chai';
import type { BrowserName } from '../../core/capture-spec.js';
import { ApiError } from '../../core/errors.js';
import { MemoryJobQueue } from '../../grid/queue/memory-job-queue.js';
import { MemoryNodeRegistry } from '../../grid/registry/memory-node-registry.js';
import { Admission } from '../../grid/scheduling/admission.js';
import { chromeNode } from '../support/node-status.js';

/** A queue for this test only: the in-process queue whose depth look-up never answers while `hanging` is set. */
class HangingDepthTestQueue extends MemoryJobQueue {
  hanging = true;
  failing: Error | null = null;
  lookups = 0;

  override depth(): Promise<Record<BrowserName, number>> {
    this.lookups += 1;
    if (this.failing) return Promise.reject(this.failing);
    return this.hanging ? new Promise(() => undefined) : super.depth();
  }
}

/**
 * Every create waits on admission's shared look-up: one that never answers must not hold every later
 * create with it. Past its deadline the waiting creates get a 503, and the next create asks again.
 */
describe('admission: a look-up that never answers', function () {
  this.timeout(20_000);
  let queue: HangingDepthTestQueue;
  let registry: MemoryNodeRegistry;

  beforeEach(async () => {
    queue = new HangingDepthTestQueue();
    registry = new MemoryNodeRegistry({ ttlMs: 60_000 });
    await registry.heartbeat(chromeNode({ id: 'unit-node' }));
  });
  afterEach(async () => {
    await queue.close();
    await registry.close();
  });

  it('answers the creates waiting on it 503 once its deadline passed, and the next create looks up again', async () => {
    const admission = new Admission(queue, registry, 100, 300);
    const started = Date.now();
    const waiting = await Promise.allSettled([admission.admit(['chrome'], 1), admission.admit(['chrome'], 1)]);
    expect(Date.now() - started, 'answered at the deadline').to.be.below(5_000);
    for (const w of waiting) {
      expect(w.status).to.equal('rejected');
      const err = (w as PromiseRejectedResult).reason as ApiError;
      expect(err).to.be.instanceOf(ApiError);
      expect([err.status, err.code]).to.deep.equal([503, 'SERVICE_UNAVAILABLE']);
    }
    expect(queue.lookups, 'the two creates shared one look-up').to.equal(1);
    queue.hanging = false;
    const nodes = await admission.admit(['chrome'], 1);
    expect(nodes.map((n) => n.id)).to.deep.equal(['unit-node']);
    expect(queue.lookups).to.equal(2);
  });

  it('answers 503 naming the look-up when it fails (a NATS request timing out), not 500, and the next create looks up again', async () => {
    const admission = new Admission(queue, registry, 100, 300);
    queue.failing = new Error('TIMEOUT');
    const failed = await admission.admit(['chrome'], 1).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failed).to.be.instanceOf(ApiError);
    expect([(failed as ApiError).status, (failed as ApiError).code]).to.deep.equal([503, 'SERVICE_UNAVAILABLE']);
    expect((failed as ApiError).message).to.equal('The farm could not be asked (the queue depth: TIMEOUT); try again shortly');
    queue.failing = null;
    queue.hanging = false;
    expect((await admission.admit(['chrome'], 1)).map((n) => n.id)).to.deep.equal(['unit-node']);
  });
});
