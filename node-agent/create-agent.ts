import { readFile } from 'node:fs/promises';
import type { Config } from '../core/config/config.js';
import type { BrowserDriver } from '../core/contracts/browser-driver.js';
import type { JobQueue } from '../core/contracts/job-queue.js';
import type { NodeRegistry } from '../core/contracts/node-registry.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import type { Logger } from '../core/logger.js';
import { PlaywrightDriver } from '../drivers/playwright/playwright-driver.js';
import { BrowserPools } from './browser-pools.js';
import { EgressGuard } from './egress/egress-guard.js';
import type { HostLookup } from '../core/net/resolve-destination.js';
import { resolveFfmpegPath } from './ffmpeg-path.js';
import { NodeAgent } from './node-agent.js';

/** The driver an agent's configuration asks for. */
export async function createDriver(config: Config): Promise<BrowserDriver> {
  const a = config.agent;
  if (a.driver === 'null') {
    // Benchmarks and tests only; load-config.ts refused it unless SHOTFARM_ALLOW_NULL_DRIVER is true.
    const { NullDriver } = await import('../drivers/null/null-driver.js');
    const image = a.nullDriver.imagePath ? await readFile(a.nullDriver.imagePath) : undefined;
    return new NullDriver({ delayMs: a.nullDriver.delayMs, ...(image ? { image } : {}) });
  }
  const ffmpegPath = resolveFfmpegPath(a.ffmpegPath);
  if (a.driver === 'selenium') {
    const { SeleniumDriver } = await import('../drivers/selenium/selenium-driver.js');
    return new SeleniumDriver({ ffmpegPath, defaultMaxWaitSeconds: config.farm.captureTimeoutSeconds, settleCapSeconds: a.settleCapSeconds, pngEncoding: a.pngEncoding, maxPageHeight: a.maxPageHeight });
  }
  return new PlaywrightDriver({ chromiumPath: a.chromiumPath, firefoxPath: a.firefoxPath, ffmpegPath, defaultMaxWaitSeconds: config.farm.captureTimeoutSeconds, settleCapSeconds: a.settleCapSeconds, pngEncoding: a.pngEncoding, maxPageHeight: a.maxPageHeight });
}

/** Builds a node agent from the configuration and the farm's parts; start() it to take jobs. */
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
  // The null driver opens no page, so there is no egress to guard.
  if (config.allowPrivateTargets || config.agent.driver === 'null') return null;
  if (config.agent.driver === 'selenium') {
    // The guard listens on this machine's loopback, which the Grid's browsers on other machines cannot
    // reach, and WebDriver's manual proxy carries no credentials to tell the captures apart. Refusing to
    // start is the only way not to run captures unguarded.
    throw new Error('the selenium driver cannot go through the egress guard: set SHOTFARM_ALLOW_PRIVATE_TARGETS=true (and guard the Grid\'s network) or use the playwright driver');
  }
  return new EgressGuard({ allowlist: config.privateTargetAllowlist, ...(options.lookup ? { lookup: options.lookup } : {}) }, log);
}

export async function createAgent(config: Config, parts: { queue: JobQueue; registry: NodeRegistry; objects: ObjectStore }, log: Logger, observers: AgentObservers = {}, options: AgentOptions = {}): Promise<NodeAgent> {
  const a = config.agent;
  const guard = createEgressGuard(config, log, options);
  const driver = await createDriver(config);
  const browsers = a.browsers.filter((b) => driver.browsers().includes(b));
  const pools = new BrowserPools(driver, browsers, { slots: a.slots, capturesPerBrowser: a.capturesPerBrowser, recycleAfterJobs: a.recycleAfterJobs, poolIdleSeconds: a.poolIdleSeconds, bravePath: a.bravePath, gridUrl: a.seleniumGridUrl, egressProxy: guard ? () => guard.browserProxy() : null, onReplace: observers.browserReplaced });
  return new NodeAgent(
    { nodeId: a.nodeId, browsers, slots: a.slots, countries: a.countries, driver: driver.kind, captureTimeoutSeconds: config.farm.captureTimeoutSeconds, heartbeatSeconds: config.farm.heartbeatSeconds },
    pools, parts.queue, parts.registry, parts.objects, log, observers.capture, guard,
  );
}
