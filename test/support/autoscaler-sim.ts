import { parsePrometheusText, sampleSum } from './prometheus-text.js';

/** One agent the simulated autoscaler started: how to ask it to leave, and when it has left. */
export interface SimAgent {
  id: string;
  /** settles when the agent has carried out a drain request and stopped (its process would exit 0) */
  gone: Promise<void>;
}

export interface AutoscalerSimOptions {
  /** the api's GET /metrics address (what Prometheus scrapes) */
  metricsUrl: string;
  /** starts one agent (a pod of the Deployment), resolving once it takes jobs */
  startAgent: (id: string) => Promise<SimAgent>;
  /** asks an agent to leave: what the pod's preStop runs (`shotfarm nodes drain ID`) */
  drain: (id: string) => Promise<void>;
  /** KEDA's minReplicaCount and maxReplicaCount */
  min: number;
  max: number;
  /** KEDA's pollingInterval, compressed */
  pollMs: number;
  /** the HPA's scaleDown.stabilizationWindowSeconds, compressed: the highest wish of this window wins */
  scaleDownWindowMs: number;
}

/** What happened, for the test's assertions and its printed numbers. */
export interface ScalingTimeline {
  /** [ms since start(), agents running (not asked to leave)] at every change */
  replicas: [number, number][];
  /** the highest gauge value read */
  peakNeeded: number;
  /** agents started in all, and drained in all */
  started: number;
  drained: number;
}

/**
 * Plays KEDA's part for the scaling simulation (test/integration/agent-autoscaling.test.ts), as
 * deploy/kubernetes/autoscaling/keda/scaledobject.yaml configures it, with the intervals compressed: every
 * poll reads `max(shotfarm_agents_needed{browser="any"})` from /metrics, scales up at once to it (clamped to
 * min..max), and scales down only to the highest value of the last window, never below min, and only by
 * draining: an agent asked to leave keeps running until it has finished what it holds (its `gone`).
 */
export class AutoscalerSim {
  private readonly running = new Map<string, SimAgent>();
  private readonly leaving = new Set<Promise<void>>();
  private readonly wishes: [number, number][] = [];
  private readonly timeline: ScalingTimeline = { replicas: [], peakNeeded: 0, started: 0, drained: 0 };
  private timer: NodeJS.Timeout | null = null;
  private turn: Promise<void> = Promise.resolve();
  private startedAt = 0;
  private nextId = 0;
  private failure: unknown = null;

  constructor(private readonly opts: AutoscalerSimOptions) {}

  /** Starts the minimum at once, then polls. */
  async start(): Promise<void> {
    this.startedAt = Date.now();
    await this.scaleTo(this.opts.min);
    this.timer = setInterval(() => {
      this.turn = this.turn.then(() => this.poll()).catch((err: unknown) => void (this.failure ??= err));
    }, this.opts.pollMs);
  }

  /** Agents running now, not asked to leave. */
  replicas(): number {
    return this.running.size;
  }

  /** Agents asked to leave that have not left yet. */
  leavingCount(): number {
    return this.leaving.size;
  }

  result(): ScalingTimeline {
    if (this.failure) throw this.failure instanceof Error ? this.failure : new Error(String(this.failure));
    return this.timeline;
  }

  /** Stops polling (after the turn under way), leaving the agents to the caller. */
  async stop(): Promise<string[]> {
    if (this.timer) clearInterval(this.timer);
    await this.turn.catch(() => undefined);
    await Promise.all(this.leaving);
    return [...this.running.keys()];
  }

  private async poll(): Promise<void> {
    const res = await fetch(this.opts.metricsUrl);
    if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
    const needed = sampleSum(parsePrometheusText(await res.text()), 'shotfarm_agents_needed', { browser: 'any' });
    this.timeline.peakNeeded = Math.max(this.timeline.peakNeeded, needed);
    const now = Date.now();
    const wish = Math.min(this.opts.max, Math.max(this.opts.min, needed));
    this.wishes.push([now, wish]);
    while (this.wishes.length > 0 && this.wishes[0]![0] < now - this.opts.scaleDownWindowMs) this.wishes.shift();
    // Up at once; down only to the highest wish of the window (the HPA's stabilization), so a dip between two bursts drains nothing.
    const target = wish >= this.running.size ? wish : Math.max(...this.wishes.map(([, w]) => w));
    await this.scaleTo(target);
  }

  private async scaleTo(target: number): Promise<void> {
    if (target > this.running.size) {
      const ids = Array.from({ length: target - this.running.size }, () => `sim-agent-${++this.nextId}`);
      const agents = await Promise.all(ids.map((id) => this.opts.startAgent(id)));
      for (const a of agents) this.running.set(a.id, a);
      this.timeline.started += agents.length;
    } else if (target < this.running.size) {
      // The newest leave first, as a ReplicaSet removes its youngest pods.
      const leaving = [...this.running.values()].slice(target);
      for (const a of leaving) {
        this.running.delete(a.id);
        await this.opts.drain(a.id);
        const gone = a.gone.then(() => {
          this.timeline.drained++;
          this.leaving.delete(gone);
        });
        this.leaving.add(gone);
      }
    } else return;
    this.timeline.replicas.push([Date.now() - this.startedAt, this.running.size]);
  }
}
