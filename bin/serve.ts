import { startControlPlane } from '../api/control-plane.js';
import type { Config } from '../core/config/config.js';
import { createLogger } from '../core/logger.js';
import { FarmMetrics } from '../core/metrics/farm-metrics.js';
import { driverAdapters } from '../drivers/driver-adapters.js';
import { createAgent } from '../node-agent/create-agent.js';
import { controlPlaneContainer, printWelcome } from './control-plane-root.js';
import { stopOnSignal } from './stop-on-signal.js';

/**
 * `shotfarm serve`: the embedded all-in-one process: the API, the in-process queue and one browser agent.
 * The one composition root that starts both a control plane and an agent.
 */
export async function serve(cfg: Config): Promise<void> {
  const log = createLogger(cfg.logLevel);
  const { container, adapters, close } = await controlPlaneContainer(cfg, log, 'shotfarm-serve', driverAdapters);
  // The agent warms its browsers before the API opens, so the first request finds a live node.
  // One registry: the API's /metrics shows the embedded agent's captures too.
  const metrics = new FarmMetrics();
  const agent = createAgent(cfg, container, log, metrics.agentObservers(cfg.agent.driver));
  metrics.watch({ inFlight: () => agent.status().inFlight, poolSizes: () => agent.poolSizes(), treeRss: () => agent.status().rssBytes ?? null });
  await agent.start();
  const plane = await startControlPlane(cfg, { generateBootstrapKey: true, container, logger: log, metrics, operatorEndpoint: true });
  adapters.assertResolved();
  // Stopped in reverse: the agent drains first while the API still records its last results.
  const stop = stopOnSignal([close, plane.stop, agent.stop.bind(agent)]);
  // The one agent drained on request (POST /admin/nodes/drain): nothing would take jobs, so all stop.
  void agent.drained.then(() => stop('drain request carried out'));
  printWelcome(plane, cfg);
}
