import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BROWSERS } from '../capture-spec.js';
import { QUEUE_TIERS, type LaneAge } from '../contracts/job-queue.js';
import type { NodeStatus } from '../contracts/node-registry.js';
import { agentsNeededByBrowser } from './agents-needed.js';

/** What the process's metrics read when Prometheus scrapes; each part is given by the process that has it. */
export interface MetricSources {
  /** jobs waiting, per browser (the control plane's queue) */
  queueDepth?: () => Promise<Record<string, number>>;
  /** the age of the oldest waiting job, per lane holding any (the control plane's queue) */
  queueAges?: () => Promise<LaneAge[]>;
  /** the farm's live nodes (the control plane's registry) */
  nodes?: () => Promise<NodeStatus[]>;
  /** capture slots of one agent (SHOTFARM_AGENT_SLOTS, shared by the api and its agents): with the three above, the agents needed */
  agentSlots?: number;
  /** app runs counted by app type and status (the control plane's database) */
  appRuns?: () => Promise<{ type: string; status: string; count: number }[]>;
  /** jobs this node works on (an agent) */
  inFlight?: () => number;
  /** browsers started per pool (an agent) */
  poolSizes?: () => Record<string, number>;
  /** resident memory of the node's process tree, bytes, or null where unreadable (an agent) */
  treeRss?: () => number | null;
}

/** The hooks a node agent calls; FarmMetrics.agentObservers gives them (distributed and embedded agents alike). */
export interface CaptureObservers {
  capture: (browser: string, seconds: number, outcome: string) => void;
  browserReplaced: (browser: string, reason: 'crash' | 'recycle') => void;
}

/**
 * The Prometheus metrics of one process (API, agent, or both in embedded mode), each on its own registry
 * so two services in one process (tests) do not collide. Values that live elsewhere (queue depth, nodes,
 * pool sizes, jobs in flight, app runs) are read when Prometheus scrapes, through the sources given here.
 * Node's default metrics keep their standard names (process_cpu_seconds_total, nodejs_heap_size_used_bytes…)
 * so stock dashboards and alerts work on them.
 */
export class FarmMetrics {
  readonly registry = new Registry();
  readonly captureSeconds: Histogram<'browser' | 'driver' | 'outcome'>;
  readonly failures: Counter<'reason'>;
  readonly browserRestarts: Counter<'browser' | 'reason'>;
  readonly results: Counter<'status'>;
  readonly httpSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly dbStatements: Counter;

  constructor(sources: MetricSources = {}) {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.captureSeconds = new Histogram({
      name: 'shotfarm_capture_duration_seconds',
      help: 'Time from taking a job to publishing its result',
      labelNames: ['browser', 'driver', 'outcome'],
      // From a fast light page (~0.3 s) to a long video or a page at its deadline (60 s+).
      buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
      registers,
    });
    this.failures = new Counter({ name: 'shotfarm_capture_failures_total', help: 'Captures that failed, by reason', labelNames: ['reason'], registers });
    this.browserRestarts = new Counter({ name: 'shotfarm_browser_restarts_total', help: 'Browsers replaced after a crash or recycling', labelNames: ['browser', 'reason'], registers });
    this.results = new Counter({
      name: 'shotfarm_results_total',
      help: 'Screenshots ended (once each; redelivered duplicates are not counted), by status: finished, error, or cancelled (with their batch or crawl)',
      labelNames: ['status'],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: 'shotfarm_http_request_duration_seconds',
      help: 'HTTP requests to the API, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      // Most API answers take a few ms; a synchronous create waits for its capture (seconds).
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    // What the control plane asks of its database per capture (make bench-farm divides it by the captures).
    this.dbStatements = new Counter({ name: 'shotfarm_db_statements_total', help: 'SQL statements the process sent to its database (transaction BEGIN and COMMIT included)', registers });
    this.watch(sources);
  }

  /**
   * Adds gauges read from `sources` at each scrape. In embedded mode the agent and the control plane each
   * add theirs to the one registry the process serves.
   */
  watch(sources: MetricSources): void {
    const registers = [this.registry];
    const { appRuns, inFlight, poolSizes, treeRss, agentSlots } = sources;
    // One read of each shared source per scrape, whichever gauges read it.
    const queueDepth = sources.queueDepth && perScrape(sources.queueDepth);
    const queueAges = sources.queueAges && perScrape(sources.queueAges);
    const nodes = sources.nodes && perScrape(sources.nodes);
    if (queueDepth) {
      new Gauge({
        name: 'shotfarm_queue_depth',
        help: 'Jobs waiting in the queue, per browser',
        labelNames: ['browser'],
        registers,
        async collect() {
          for (const [browser, depth] of Object.entries(await queueDepth().catch(() => ({})))) this.set({ browser }, depth);
        },
      });
    }
    if (queueAges) {
      new Gauge({
        name: 'shotfarm_queue_oldest_age_seconds',
        help: 'Age of the oldest job waiting in each lane (browser and tier); 0 when none waits',
        labelNames: ['browser', 'tier'],
        registers,
        async collect() {
          const ages = await queueAges().catch(() => null);
          // A queue that cannot be read leaves the last values (as queue depth does) rather than claiming 0.
          if (!ages) return;
          // Every lane is set, empty ones to 0, so an alert on age clears when its lane empties.
          for (const browser of BROWSERS) for (const tier of QUEUE_TIERS) this.set({ browser, tier }, 0);
          for (const { browser, tier, seconds } of ages) this.set({ browser, tier }, seconds);
        },
      });
    }
    if (nodes) this.nodeGauges(nodes);
    if (queueDepth && queueAges && nodes && agentSlots) {
      new Gauge({
        name: 'shotfarm_agents_needed',
        help: 'Agents the queue needs now (jobs waiting and in flight over the slots per agent; one more when the oldest waiting job is stranded), per browser, and `any` for agents offering every browser: the autoscaling signal',
        labelNames: ['browser'],
        registers,
        async collect() {
          const read = await Promise.all([queueDepth(), queueAges(), nodes()]).catch(() => null);
          // An unreadable queue or registry leaves the last values: a scale-down must not follow an outage.
          if (!read) return;
          for (const [browser, n] of Object.entries(agentsNeededByBrowser(...read, agentSlots))) this.set({ browser }, n);
        },
      });
    }
    if (appRuns) {
      new Gauge({
        name: 'shotfarm_app_runs',
        help: 'App runs, by app type and status',
        labelNames: ['type', 'status'],
        registers,
        async collect() {
          this.reset();
          for (const { type, status, count } of await appRuns().catch(() => [])) this.set({ type, status }, count);
        },
      });
    }
    if (inFlight) {
      new Gauge({
        name: 'shotfarm_jobs_in_flight',
        help: 'Jobs this node is working on',
        registers,
        collect() {
          this.set(inFlight());
        },
      });
    }
    if (poolSizes) {
      new Gauge({
        name: 'shotfarm_browser_pool_size',
        help: 'Browsers started, per pool',
        labelNames: ['pool'],
        registers,
        collect() {
          for (const [pool, size] of Object.entries(poolSizes())) this.set({ pool }, size);
        },
      });
    }
    if (treeRss) {
      new Gauge({
        name: 'shotfarm_node_resident_memory_bytes',
        help: "Resident memory of this node's process tree (the agent, its browsers and their helpers)",
        registers,
        collect() {
          const bytes = treeRss();
          if (bytes !== null) this.set(bytes);
        },
      });
    }
  }

  /** Nodes by state (active, draining) and slots by state (busy, free), read from the registry at each scrape. */
  private nodeGauges(nodes: () => Promise<NodeStatus[]>): void {
    const read = (): Promise<NodeStatus[]> => nodes().catch(() => []);
    new Gauge({
      name: 'shotfarm_nodes',
      help: 'Live nodes of the farm, by state',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const list = await read();
        const draining = list.filter((n) => n.draining).length;
        this.set({ state: 'active' }, list.length - draining);
        this.set({ state: 'draining' }, draining);
      },
    });
    new Gauge({
      name: 'shotfarm_slots',
      help: 'Capture slots of the live nodes, by state',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const list = await read();
        const busy = list.reduce((sum, n) => sum + Math.min(n.inFlight, n.slots), 0);
        this.set({ state: 'busy' }, busy);
        this.set({ state: 'free' }, list.reduce((sum, n) => sum + n.slots, 0) - busy);
      },
    });
  }

  /** The hooks an agent records its captures and browser replacements through. */
  agentObservers(driver: string): CaptureObservers {
    return {
      capture: (browser, seconds, outcome) => {
        this.captureSeconds.observe({ browser, driver, outcome }, seconds);
        if (outcome !== 'finished') this.failures.inc({ reason: outcome });
      },
      browserReplaced: (browser, reason) => this.browserRestarts.inc({ browser, reason }),
    };
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * `read` shared by the gauges of one scrape (prom-client starts every gauge's collect at once, in one turn
 * of the event loop): the first caller starts the read, the others get its promise, the next scrape reads again.
 */
function perScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= read().finally(() => setTimeout(() => (pending = null), 0));
    return pending;
  };
}
