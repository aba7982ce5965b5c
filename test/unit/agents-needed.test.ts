import { expect } from 'chai';
import type { BrowserName } from '../../core/capture-spec.js';
import type { NodeStatus } from '../../core/contracts/node-registry.js';
import { STRANDED_AFTER_SECONDS, agentsNeeded, agentsNeededByBrowser } from '../../core/metrics/agents-needed.js';

const node = (id: string, browsers: BrowserName[], inFlight: number, draining = false, slots = 2): NodeStatus => ({
  id,
  host: id,
  browsers: browsers.map((name) => ({ name, version: '1', driver: 'playwright' })),
  countries: [],
  slots,
  inFlight,
  jobsDone: 0,
  failures: 0,
  startedAt: new Date(0).toISOString(),
  draining,
});

describe('agents needed (the autoscaling signal)', () => {
  it('is 0 when nothing waits and nothing runs, so the farm can scale to zero', () => {
    expect(agentsNeeded({ waiting: 0, oldestSeconds: 0, busy: 0, liveAgents: 3 }, 2)).to.equal(0);
  });

  it('gives every job waiting or in flight a slot: ceil((busy + waiting) / slots per agent)', () => {
    expect(agentsNeeded({ waiting: 1, oldestSeconds: 0, busy: 0, liveAgents: 0 }, 2)).to.equal(1);
    expect(agentsNeeded({ waiting: 3, oldestSeconds: 1, busy: 2, liveAgents: 1 }, 2)).to.equal(3);
    expect(agentsNeeded({ waiting: 1000, oldestSeconds: 2, busy: 0, liveAgents: 0 }, 4)).to.equal(250);
    // Jobs in flight keep their agents while the queue is empty: a scale-down never goes below the work held.
    expect(agentsNeeded({ waiting: 0, oldestSeconds: 0, busy: 5, liveAgents: 4 }, 2)).to.equal(3);
  });

  it('asks one agent more than live when the oldest job is stranded although the agents have room', () => {
    const stranded = { waiting: 1, oldestSeconds: STRANDED_AFTER_SECONDS, busy: 0, liveAgents: 2 };
    expect(agentsNeeded(stranded, 2)).to.equal(3);
    expect(agentsNeeded({ ...stranded, oldestSeconds: STRANDED_AFTER_SECONDS - 1 }, 2), 'a young job is on its way to a slot').to.equal(1);
    // Many waiting: the slot count already asks for more than one extra agent.
    expect(agentsNeeded({ waiting: 20, oldestSeconds: 60, busy: 4, liveAgents: 2 }, 2)).to.equal(12);
  });

  it('per browser counts the nodes offering it; `any` counts every job for agents offering every browser', () => {
    const nodes = [node('c', ['chrome'], 2), node('f', ['firefox'], 1), node('all', ['chrome', 'firefox', 'brave'], 1, true)];
    const ages = [
      { browser: 'chrome' as const, tier: 'normal' as const, seconds: 3 },
      { browser: 'firefox' as const, tier: 'bulk' as const, seconds: 40 },
    ];
    const needed = agentsNeededByBrowser({ chrome: 3, firefox: 1, brave: 0 }, ages, nodes, 2);
    // chrome: 3 waiting + 2 in flight on `c` + 1 on `all` (counted for each browser it offers) = 6 → 3.
    expect(needed.chrome).to.equal(3);
    // firefox: 1 waiting + 1 + 1 in flight = 3 → 2, but its job is stranded (40 s) and one live, non-draining
    // agent (`f`) takes firefox: 2 already exceeds it.
    expect(needed.firefox).to.equal(2);
    // brave: only the draining node offers it and holds 1 job: that job still needs its agent.
    expect(needed.brave).to.equal(1);
    // any: 4 waiting + 4 in flight = 8 → 4; the oldest (40 s) is stranded, live non-draining agents 2: 4 stands.
    expect(needed.any).to.equal(4);
  });

  it('never counts more in flight on a node than its slots', () => {
    expect(agentsNeededByBrowser({}, [], [node('x', ['chrome'], 9)], 2).chrome).to.equal(1);
  });
});
