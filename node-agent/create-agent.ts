import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../core/config/config.js';
import { TOKENS } from '../core/di/tokens.js';
import type { Logger } from '../core/logger.js';
import { BrowserPools } from './browser-pools.js';
import { EgressGuard } from './egress/egress-guard.js';
import { privateKindOf } from '../core/net/ip-ranges.js';
import type { HostLookup } from '../core/net/resolve-destination.js';
import { NodeAgent } from './node-agent.js';

/** Callbacks for the agent's metrics. */
export interface AgentObservers {
  capture?: (browser: string, seconds: number, outcome: string) => void;
  browserReplaced?: (browser: string, reason: 'crash' | 'recycle') => void;
}

/** What an embedding process (a test) may pass beyond the configuration. */
export interface AgentOptions {
  /** the egress guard's resolver instead of the system's: tests map host names onto their loopback site */
  lookup?: HostLookup;
}

/** The SSRF guard of an agent (or a one-off capture), or null when SHOTFARM_ALLOW_PRIVATE_TARGETS is true. */
export function createEgressGuard(config: Config, log: Logger, options: AgentOptions = {}): EgressGuard | null {
  if (config.allowPrivateTargets) return null;
  const selenium = config.agent.driver === 'selenium';
  if (selenium && !onThisMachine(config.agent.seleniumGridUrl)) {
    // The guard listens on this machine's loopback, which the browsers of a Grid on other machines cannot
    // reach; opening it to the network would make it a proxy anyone there could use. Refusing to start is
    // the only way not to run captures unguarded.
    throw new Error(
      "the selenium driver goes through the egress guard only with a Selenium Grid on this machine (SELENIUM_GRID_URL on a loopback address): set SHOTFARM_ALLOW_PRIVATE_TARGETS=true (and guard the Grid's network) or use the playwright driver",
    );
  }
  // A grid session is a browser of its own and WebDriver's proxy setting has no credentials: each capture
  // gets a guard port of its own instead (egress-guard.ts).
  return new EgressGuard({ allowlist: config.privateTargetAllowlist, passes: selenium ? 'port' : 'credentials', ...(options.lookup ? { lookup: options.lookup } : {}) }, log);
}

/** True when `gridUrl` names this machine (localhost or a loopback address), whose browsers reach the guard's loopback port. */
function onThisMachine(gridUrl: string | null): boolean {
  if (gridUrl === null) return false;
  const host = new URL(gridUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || privateKindOf(host) === 'loopback';
}

/**
 * A node agent over the adapters the configuration chose (core/di/adapters.ts: queue, registry, object
 * store, browser driver), resolved from `container`; start() it to take jobs.
 */
export function createAgent(config: Config, container: DependencyContainer, log: Logger, observers: AgentObservers = {}, options: AgentOptions = {}): NodeAgent {
  const a = config.agent;
  const guard = createEgressGuard(config, log, options);
  const driver = container.resolve(TOKENS.BrowserDriver);
  const browsers = a.browsers.filter((b) => driver.browsers().includes(b));
  const pools = new BrowserPools(driver, browsers, {
    slots: a.slots,
    capturesPerBrowser: a.capturesPerBrowser,
    recycleAfterJobs: a.recycleAfterJobs,
    poolIdleSeconds: a.poolIdleSeconds,
    warmBrowsers: a.poolWarmBrowsers,
    bravePath: a.bravePath,
    gridUrl: a.seleniumGridUrl,
    egressProxy: guard ? () => guard.browserProxy() : null,
    // Null with per-pass ports (Selenium): the driver then makes each context when its capture starts.
    prepareEgress: guard?.preparer() ?? null,
    onReplace: observers.browserReplaced,
  });
  return new NodeAgent(
    {
      nodeId: a.nodeId,
      browsers,
      slots: a.slots,
      countries: a.countries,
      driver: driver.kind,
      captureTimeoutSeconds: config.farm.captureTimeoutSeconds,
      heartbeatSeconds: config.farm.heartbeatSeconds,
    },
    pools,
    container.resolve(TOKENS.JobQueue),
    container.resolve(TOKENS.NodeRegistry),
    container.resolve(TOKENS.ObjectStore),
    log,
    observers.capture,
    guard,
  );
}
