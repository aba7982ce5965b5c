import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The Prometheus metrics of one process (API or agent), each on its own registry so two services in one
 * process (embedded mode, tests) do not collide. Values that live elsewhere (queue depth, pool sizes,
 * jobs in flight) are read when Prometheus scrapes, through the `collect` callbacks given here.
 */
export class FarmMetrics {
  readonly registry = new Registry();
  readonly captureSeconds: Histogram<'browser' | 'driver' | 'outcome'>;
  readonly failures: Counter<'reason'>;
  readonly browserRestarts: Counter<'browser' | 'reason'>;
  readonly results: Counter<'outcome'>;

  constructor(sources: {
    queueDepth?: () => Promise<Record<string, number>>;
    inFlight?: () => number;
    poolSizes?: () => Record<string, number>;
  } = {}) {
    collectDefaultMetrics({ register: this.registry, prefix: 'shotfarm_process_' });
    this.captureSeconds = new Histogram({
      name: 'shotfarm_capture_duration_seconds', help: 'Time from taking a job to publishing its result', labelNames: ['browser', 'driver', 'outcome'],
      // From a fast light page (~0.3 s) to a long video or a page at its deadline (60 s+).
      buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120], registers: [this.registry],
    });
    this.failures = new Counter({ name: 'shotfarm_capture_failures_total', help: 'Captures that failed, by reason', labelNames: ['reason'], registers: [this.registry] });
    this.browserRestarts = new Counter({ name: 'shotfarm_browser_restarts_total', help: 'Browsers replaced after a crash or recycling', labelNames: ['browser', 'reason'], registers: [this.registry] });
    this.results = new Counter({ name: 'shotfarm_results_total', help: 'Capture results applied by the recorder', labelNames: ['outcome'], registers: [this.registry] });
    const { queueDepth, inFlight, poolSizes } = sources;
    if (queueDepth) {
      new Gauge({
        name: 'shotfarm_queue_depth', help: 'Jobs waiting in the queue, per browser', labelNames: ['browser'], registers: [this.registry],
        async collect() {
          for (const [browser, depth] of Object.entries(await queueDepth().catch(() => ({})))) this.set({ browser }, depth);
        },
      });
    }
    if (inFlight) {
      new Gauge({ name: 'shotfarm_jobs_in_flight', help: 'Jobs this node is working on', registers: [this.registry], collect() { this.set(inFlight()); } });
    }
    if (poolSizes) {
      new Gauge({
        name: 'shotfarm_browser_pool_size', help: 'Browsers started, per pool', labelNames: ['pool'], registers: [this.registry],
        collect() {
          for (const [pool, size] of Object.entries(poolSizes())) this.set({ pool }, size);
        },
      });
    }
  }

  /** Records a finished job (the agent's `observe` hook). */
  observeCapture(driver: string) {
    return (browser: string, seconds: number, outcome: string): void => {
      this.captureSeconds.observe({ browser, driver, outcome }, seconds);
      if (outcome !== 'finished') this.failures.inc({ reason: outcome });
    };
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
