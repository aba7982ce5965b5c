import type { BrowserName } from '../../core/capture-spec.js';
import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { NodeRegistry, NodeStatus } from '../../core/contracts/node-registry.js';
import { ApiError } from '../../core/errors.js';

/**
 * Seconds a client is told to wait when the backlog is full: roughly the time a small farm needs to
 * work a few dozen jobs off the queue.
 */
const BACKLOG_RETRY_AFTER_SECONDS = 30;

/**
 * Decides, before anything is created, whether the farm can take more jobs for these browsers:
 * no live node offers a browser → 503 naming it; the backlog of a browser is over its bound → 429.
 */
export class Admission {
  constructor(private readonly queue: JobQueue, private readonly registry: NodeRegistry, private readonly maxBacklog: number) {}

  async admit(browsers: BrowserName[], jobs: number): Promise<NodeStatus[]> {
    const nodes = await this.registry.list();
    for (const browser of new Set(browsers)) {
      if (!nodes.some((n) => !n.draining && n.browsers.some((b) => b.name === browser))) {
        throw new ApiError(503, 'BROWSER_UNAVAILABLE', `No browser node offering ${browser} is online; try again later or choose another browser`);
      }
    }
    const depth = await this.queue.depth();
    for (const browser of new Set(browsers)) {
      if ((depth[browser] ?? 0) + jobs > this.maxBacklog) {
        throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', `The ${browser} queue is full; try again later`, { retryAfter: BACKLOG_RETRY_AFTER_SECONDS });
      }
    }
    return nodes;
  }
}
