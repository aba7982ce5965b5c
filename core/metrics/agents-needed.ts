import { BROWSERS, type BrowserName } from '../capture-spec.js';
import type { LaneAge } from '../contracts/job-queue.js';
import type { NodeStatus } from '../contracts/node-registry.js';

/**
 * A job that has waited this long while the agents offering its browser have room for it is not waiting
 * for a slot about to free: it is stranded (its country has no agent, the agents are draining or stuck).
 * 15 s is 6× the slowest p95 capture measured on the 2-core machine under load (Firefox full page, 2.4 s,
 * docs/performance.md): a job behind a running capture has normally been taken well before.
 */
export const STRANDED_AFTER_SECONDS = 15;

/** What the queue and the registry say about one lane of work, for the agents-needed formula. */
export interface Demand {
  /** jobs waiting */
  waiting: number;
  /** age of the oldest of them, seconds (0 when none waits) */
  oldestSeconds: number;
  /** jobs in flight on the live nodes that take this work */
  busy: number;
  /** live nodes taking this work that are not draining */
  liveAgents: number;
}

/**
 * The agents the work needs now: every job in flight and every job waiting gets a slot
 * (ceil((busy + waiting) / slots per agent)); when the oldest waiting job is stranded although the
 * agents have room, one agent more than live. 0 when nothing waits and nothing runs (scale to zero).
 * Scaling down below the live agents is the autoscaler's call, and it only drains (the agents' preStop).
 */
export function agentsNeeded(d: Demand, slotsPerAgent: number): number {
  const forSlots = Math.ceil((d.busy + d.waiting) / Math.max(1, slotsPerAgent));
  const stranded = d.waiting > 0 && d.oldestSeconds >= STRANDED_AFTER_SECONDS;
  return stranded ? Math.max(forSlots, d.liveAgents + 1) : forSlots;
}

/**
 * Per browser, and `any` for agents that offer every browser (the default agent, one Deployment): a node's
 * jobs in flight are counted for every browser it offers (a node says its total, not per browser), so
 * the per-browser values fit a Deployment per browser, and `any` (all waiting jobs plus all in flight)
 * fits one Deployment of agents offering all of them.
 */
export function agentsNeededByBrowser(depth: Record<string, number>, ages: LaneAge[], nodes: NodeStatus[], slotsPerAgent: number): Record<BrowserName | 'any', number> {
  const oldest = (browsers: readonly string[]): number => Math.max(0, ...ages.filter((a) => browsers.includes(a.browser)).map((a) => a.seconds));
  const demand = (browsers: readonly string[], offers: (n: NodeStatus) => boolean): Demand => {
    const taking = nodes.filter(offers);
    return {
      waiting: browsers.reduce((sum, b) => sum + (depth[b] ?? 0), 0),
      oldestSeconds: oldest(browsers),
      busy: taking.reduce((sum, n) => sum + Math.min(n.inFlight, n.slots), 0),
      liveAgents: taking.filter((n) => !n.draining).length,
    };
  };
  const needed = {
    any: agentsNeeded(
      demand(BROWSERS, () => true),
      slotsPerAgent,
    ),
  } as Record<BrowserName | 'any', number>;
  for (const b of BROWSERS)
    needed[b] = agentsNeeded(
      demand([b], (n) => n.browsers.some((x) => x.name === b)),
      slotsPerAgent,
    );
  return needed;
}
