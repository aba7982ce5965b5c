import type { BrowserName } from '../../core/capture-spec.js';
import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { NodeRegistry, NodeStatus } from '../../core/contracts/node-registry.js';
import { ApiError, serviceUnavailable } from '../../core/errors.js';

/**
 * Seconds a client is told to wait when the backlog is full: roughly the time a small farm needs to
 * work a few dozen jobs off the queue.
 */
const BACKLOG_RETRY_AFTER_SECONDS = 30;

/**
 * How long a look-up may take before the creates waiting on it are answered 503. Every create shares the
 * pending look-up, so one that never answered held every later create with it: in make bench-farm a NATS
 * look-up that never settled left each create of the api waiting for good (the api otherwise healthy). Its
 * requests answer in milliseconds; 5 s is the NATS client's own request timeout.
 */
export const LOOKUP_DEADLINE_MS = 5_000;

/**
 * How long a queue-depth answer stands for the creates after it. The depth is two JetStream requests whose
 * answer lists every account queue's consumer, asked again for every group of creates arriving together and
 * decoded by the api on the create's path. Kept 250 ms, it is asked at most 4 times a second per
 * replica, and what this replica admitted meanwhile is added to it (so its own creates fill the backlog at
 * once); creates of another replica are seen at most 250 ms late, and jobs taken meanwhile free room then.
 */
export const DEPTH_KEPT_MS = 250;

/**
 * One look-up shared by every caller that asks while it is under way. Admission runs on every create, and
 * on NATS each look-up is several requests (the node registry's keys; the jobs stream's per-subject counts
 * and its consumers list, which grows with the accounts that have work). Creates that arrive together share
 * one answer instead of each sending their own. Nothing is kept once the answer arrives, so an answer is at
 * most one look-up old (the next create after a node leaves or the backlog fills sees it). Callers only read it.
 */
class SharedLookup<T> {
  private pending: Promise<T> | null = null;

  constructor(
    private readonly what: string,
    private readonly lookup: () => Promise<T>,
    private readonly deadlineMs: number,
  ) {}

  get(): Promise<T> {
    if (!this.pending) {
      const started = withDeadline(this.lookup(), this.deadlineMs, this.what);
      this.pending = started;
      const clear = (): void => {
        if (this.pending === started) this.pending = null;
      };
      started.then(clear, clear);
    }
    return this.pending;
  }
}

/**
 * The queue's depth as admission reads it: the last answer while it is younger than `keptMs`, plus the jobs
 * admitted since it arrived; then a new look-up (shared by the creates that wait on it).
 */
class KeptDepth {
  private answer: { depth: Record<BrowserName, number>; at: number } | null = null;
  private admittedSince = new Map<BrowserName, number>();

  constructor(
    private readonly lookup: SharedLookup<Record<BrowserName, number>>,
    private readonly keptMs: number,
  ) {}

  /** Makes sure an answer younger than `keptMs` is held, looking up when it is not. */
  async fresh(): Promise<void> {
    if (this.answer && Date.now() - this.answer.at < this.keptMs) return;
    const depth = await this.lookup.get();
    // The first create back from a look-up replaces the answer; those that waited with it read the same one.
    if (!this.answer || this.answer.depth !== depth) {
      this.answer = { depth, at: Date.now() };
      this.admittedSince = new Map();
    }
  }

  /** Jobs of the browser in the queue as far as this replica knows (call after `fresh`). */
  of(browser: BrowserName): number {
    return (this.answer?.depth[browser] ?? 0) + (this.admittedSince.get(browser) ?? 0);
  }

  admitted(browsers: Set<BrowserName>, jobs: number): void {
    for (const browser of browsers) this.admittedSince.set(browser, (this.admittedSince.get(browser) ?? 0) + jobs);
  }
}

/**
 * Decides, before anything is created, whether the farm can take more jobs for these browsers:
 * no live node offers a browser → 503 naming it; the backlog of a browser is over its bound → 429.
 */
export class Admission {
  private readonly nodes: SharedLookup<NodeStatus[]>;
  private readonly depth: KeptDepth;

  constructor(
    queue: JobQueue,
    registry: NodeRegistry,
    private readonly maxBacklog: number,
    deadlineMs = LOOKUP_DEADLINE_MS,
    depthKeptMs = DEPTH_KEPT_MS,
  ) {
    // The registry as held in memory where it has one (NATS: a watch, no request per create), else its list.
    this.nodes = new SharedLookup('the node registry', () => (registry.listHeld ? registry.listHeld() : registry.list()), deadlineMs);
    this.depth = new KeptDepth(new SharedLookup('the queue depth', () => queue.depth(), deadlineMs), depthKeptMs);
  }

  async admit(browsers: BrowserName[], jobs: number): Promise<NodeStatus[]> {
    const nodes = await this.nodes.get();
    for (const browser of new Set(browsers)) {
      if (!nodes.some((n) => !n.draining && n.browsers.some((b) => b.name === browser))) {
        throw new ApiError(503, 'BROWSER_UNAVAILABLE', `No browser node offering ${browser} is online; try again later or choose another browser`);
      }
    }
    const asked = new Set(browsers);
    await this.depth.fresh();
    // Nothing awaits from here to the count: creates that arrive together are counted one after another.
    for (const browser of asked) {
      if (this.depth.of(browser) + jobs > this.maxBacklog) {
        throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', `The ${browser} queue is full; try again later`, { retryAfter: BACKLOG_RETRY_AFTER_SECONDS });
      }
    }
    this.depth.admitted(asked, jobs);
    return nodes;
  }
}

/**
 * The look-up's answer, or a 503 once `ms` passed without one (the look-up is then no longer shared). A
 * look-up that fails (a NATS request timing out, the database gone) is a 503 too: the farm cannot say now
 * whether it can take the job, which is the client's to retry, not a fault of the request (500).
 */
function withDeadline<T>(lookup: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(serviceUnavailable(`The farm did not answer in time (${what}); try again shortly`)), ms);
  });
  const answered = lookup.catch((error: unknown) => {
    if (error instanceof ApiError) throw error;
    throw serviceUnavailable(`The farm could not be asked (${what}: ${error instanceof Error ? error.message : String(error)}); try again shortly`);
  });
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}
