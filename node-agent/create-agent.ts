import type { Config } from '../core/config/config.js';
import type { BrowserDriver } from '../core/contracts/browser-driver.js';
import type { JobQueue } from '../core/contracts/job-queue.js';
import type { NodeRegistry } from '../core/contracts/node-registry.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import type { Logger } from '../core/logger.js';
import { PlaywrightDriver } from '../drivers/playwright/playwright-driver.js';
import { BrowserPools } from './browser-pools.js';
import { resolveFfmpegPath } from './ffmpeg-path.js';
import { NodeAgent } from './node-agent.js';

/** The driver an agent's configuration asks for. */
export async function createDriver(config: Config): Promise<BrowserDriver> {
  const a = config.agent;
  const ffmpegPath = resolveFfmpegPath(a.ffmpegPath);
  if (a.driver === 'selenium') {
    const { SeleniumDriver } = await import('../drivers/selenium/selenium-driver.js');
    return new SeleniumDriver({ ffmpegPath, defaultMaxWaitSeconds: config.farm.captureTimeoutSeconds });
  }
  return new PlaywrightDriver({ chromiumPath: a.chromiumPath, firefoxPath: a.firefoxPath, ffmpegPath, defaultMaxWaitSeconds: config.farm.captureTimeoutSeconds });
}

/** Builds a node agent from the configuration and the farm's parts; start() it to take jobs. */
export interface AgentObservers {
  capture?: (browser: string, seconds: number, outcome: string) => void;
  browserReplaced?: (browser: string, reason: 'crash' | 'recycle') => void;
}

export async function createAgent(config: Config, parts: { queue: JobQueue; registry: NodeRegistry; objects: ObjectStore }, log: Logger, observers: AgentObservers = {}): Promise<NodeAgent> {
  const a = config.agent;
  const driver = await createDriver(config);
  const browsers = a.browsers.filter((b) => driver.browsers().includes(b));
  const pools = new BrowserPools(driver, browsers, { slots: a.slots, recycleAfterJobs: a.recycleAfterJobs, poolIdleSeconds: a.poolIdleSeconds, bravePath: a.bravePath, gridUrl: a.seleniumGridUrl, onReplace: observers.browserReplaced });
  return new NodeAgent(
    { nodeId: a.nodeId, browsers, slots: a.slots, countries: a.countries, driver: driver.kind, captureTimeoutSeconds: config.farm.captureTimeoutSeconds, heartbeatSeconds: config.farm.heartbeatSeconds },
    pools, parts.queue, parts.registry, parts.objects, log, observers.capture,
  );
}
