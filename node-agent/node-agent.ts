import os from 'node:os';
import type { BrowserName } from '../core/capture-spec.js';
import type { DriverKind } from '../core/contracts/browser-driver.js';
import type { Consumer, JobQueue } from '../core/contracts/job-queue.js';
import type { NodeRegistry, NodeStatus } from '../core/contracts/node-registry.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import type { Logger } from '../core/logger.js';
import type { BrowserPools } from './browser-pools.js';
import type { EgressGuard } from './egress/egress-guard.js';
import { JobRunner } from './job-runner.js';
import { TreeRssReader } from './process-tree-rss.js';
import { removeStaleBrowserTemp } from './stale-browser-temp.js';

export interface NodeAgentOptions {
  nodeId: string;
  browsers: BrowserName[];
  slots: number;
  countries: string[];
  driver: DriverKind;
  captureTimeoutSeconds: number;
  heartbeatSeconds: number;
}

/**
 * A browser node: pulls jobs for its browsers (at most `slots` at once), captures with pooled
 * browsers, stores outputs, publishes results and heartbeats to the registry. It never touches the
 * database. stop() drains: no new jobs, the ones in flight finish, then it leaves the registry.
 * An operator's drain request (read from the registry on every heartbeat) does the same and then
 * settles `drained`, so the process that owns the agent stops as on SIGTERM; a request withdrawn before
 * the jobs in flight have finished cancels it, and the agent takes jobs again once they have.
 */
export class NodeAgent {
  readonly runner: JobRunner;
  private consumer: Consumer | null = null;
  private beat: NodeJS.Timeout | null = null;
  private browserVersions: NodeStatus['browsers'] = [];
  private readonly startedAt = new Date().toISOString();
  private draining = false;
  private stopping = false;
  private requestedDrain: Promise<void> | null = null;
  private readonly treeRss = new TreeRssReader();
  private settleDrained!: () => void;
  /** Settles when the agent has drained on request: its owner then stops it (and the process exits 0). */
  readonly drained = new Promise<void>((resolve) => {
    this.settleDrained = resolve;
  });

  constructor(
    private readonly opts: NodeAgentOptions,
    private readonly pools: BrowserPools,
    private readonly queue: JobQueue,
    private readonly registry: NodeRegistry,
    store: ObjectStore,
    private readonly log: Logger,
    observe?: (browser: string, seconds: number, outcome: string) => void,
    /** the SSRF guard captures go through; null when private targets are allowed */
    private readonly guard: EgressGuard | null = null,
  ) {
    this.runner = new JobRunner(
      (spec, signal) => pools.capture(spec, signal),
      queue,
      store,
      { nodeId: opts.nodeId, host: os.hostname(), captureTimeoutSeconds: opts.captureTimeoutSeconds },
      log,
      observe,
      guard,
    );
  }

  async start(): Promise<void> {
    // What browsers of an earlier, killed agent left in /tmp goes before ours start.
    const removed = await removeStaleBrowserTemp().catch((err: unknown) => {
      this.log.warn({ err }, 'could not clean stale browser temp files');
      return [];
    });
    if (removed.length > 0) this.log.info({ removed: removed.length }, 'removed temp files of browsers that were killed');
    // The guard listens before the first job can arrive: no capture ever runs unguarded.
    await this.guard?.start();
    const started = await this.pools.start();
    this.browserVersions = started.map((b) => ({ name: b.name, version: b.version, driver: this.opts.driver }));
    // Heartbeat before taking jobs, so the control plane admits work for this node's browsers.
    await this.heartbeat();
    // A request left over from an earlier agent under this id (killed while draining) is not for this one.
    await this.registry.requestDrain(this.opts.nodeId, false);
    this.beat = setInterval(() => void this.beatAndCheckDrain().catch((err: unknown) => this.log.warn({ err }, 'heartbeat failed')), this.opts.heartbeatSeconds * 1000);
    this.consume();
    this.log.info({ node: this.opts.nodeId, browsers: this.browserVersions, slots: this.opts.slots }, 'agent taking jobs');
  }

  status(): NodeStatus {
    return {
      id: this.opts.nodeId,
      host: os.hostname(),
      browsers: this.browserVersions,
      countries: this.opts.countries,
      slots: this.opts.slots,
      inFlight: this.consumer?.inFlight() ?? 0,
      jobsDone: this.runner.stats.done,
      failures: this.runner.stats.failures,
      startedAt: this.startedAt,
      draining: this.draining,
      rssBytes: this.treeRss.read(),
    };
  }

  /** Browsers started per pool, for the agent's metrics. */
  poolSizes(): Record<string, number> {
    return this.pools.sizes();
  }

  private heartbeat(): Promise<void> {
    return this.registry.heartbeat(this.status());
  }

  private consume(): void {
    this.consumer = this.queue.consume(this.opts.browsers, this.opts.slots, this.runner.handle, { countries: this.opts.countries });
  }

  private async beatAndCheckDrain(): Promise<void> {
    await this.heartbeat();
    if (this.draining || this.stopping || !(await this.registry.drainRequested(this.opts.nodeId))) return;
    this.requestedDrain = this.drainOnRequest().catch((err: unknown) => this.log.error({ err }, 'drain on request failed'));
  }

  private async drainOnRequest(): Promise<void> {
    this.draining = true;
    this.log.info({ node: this.opts.nodeId, inFlight: this.consumer?.inFlight() ?? 0 }, 'drain requested: taking no new job, finishing those in flight');
    // The consumer stops pulling before anything is awaited: from the moment the node says it is
    // draining, it starts no pull (one already under way may still bring jobs, which it finishes).
    const drained = this.consumer?.drain();
    await this.heartbeat().catch(() => undefined);
    await drained;
    if (this.stopping) return;
    // A registry that cannot answer leaves the request standing: the operator asked for it.
    if (await this.registry.drainRequested(this.opts.nodeId).catch(() => true)) {
      this.log.info({ node: this.opts.nodeId }, 'drained on request: leaving');
      this.settleDrained();
      return;
    }
    // Withdrawn while the jobs in flight finished. A drained consumer cannot be resumed: take a new one.
    this.log.info({ node: this.opts.nodeId }, 'drain withdrawn: taking jobs again');
    this.draining = false;
    this.consume();
    await this.heartbeat().catch(() => undefined);
  }

  /** Drains: stop pulling, finish what is in flight, leave the registry, close the browsers. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.draining = true;
    await this.heartbeat().catch(() => undefined);
    // A drain on request under way may still be about to swap in a new consumer: let it settle first.
    await this.requestedDrain;
    await this.consumer?.drain();
    if (this.beat) clearInterval(this.beat);
    await this.registry.remove(this.opts.nodeId).catch(() => undefined);
    await this.pools.close();
    // Last: the jobs that were in flight during the drain still needed it.
    await this.guard?.stop();
  }
}
