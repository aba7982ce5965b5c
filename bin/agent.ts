import { randomBytes } from 'node:crypto';
import type { Config } from '../core/config/config.js';
import { registerAdapters } from '../core/di/adapters.js';
import { newContainer } from '../core/di/tokens.js';
import type { Logger } from '../core/logger.js';
import { FarmMetrics } from '../core/metrics/farm-metrics.js';
import { objectLinkSecret, objectStoreAdapters } from '../core/storage/object-store-adapters.js';
import { driverAdapters } from '../drivers/driver-adapters.js';
import { gridAdapters } from '../grid/grid-adapters.js';
import { startAgentHttp } from '../node-agent/agent-http.js';
import { createAgent } from '../node-agent/create-agent.js';

/**
 * `shotfarm agent`: a browser machine joining the farm. It holds NATS and storage settings only, never
 * database credentials. Returns the stop function that drains it (SIGTERM), and `drained`, which settles
 * when an operator's drain request (POST /admin/nodes/drain) has been carried out: the caller stops then.
 */
export async function runAgent(config: Config, log: Logger): Promise<{ stop: () => Promise<void>; url: string; drained: Promise<void> }> {
  const problem = agentSettingsProblem(config);
  if (problem) throw new Error(problem);
  const container = newContainer();
  // An agent never signs object links; the store still wants a secret, so it gets one of its own.
  const adapters = await registerAdapters(
    container,
    config,
    {
      ...gridAdapters(`shotfarm-agent-${config.agent.nodeId}`),
      ...objectStoreAdapters(objectLinkSecret(randomBytes(32).toString('hex'))),
      ...driverAdapters,
    },
    log,
  );
  let agentRef: ReturnType<typeof createAgent> | null = null;
  const metrics = new FarmMetrics({ inFlight: () => agentRef?.status().inFlight ?? 0, poolSizes: () => agentRef?.poolSizes() ?? {}, treeRss: () => agentRef?.status().rssBytes ?? null });
  const agent = createAgent(config, container, log, metrics.agentObservers(config.agent.driver));
  agentRef = agent;
  adapters.assertResolved();
  await agent.start();
  const server = await startAgentHttp(agent, metrics, config.port, config.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    drained: agent.drained,
    url: `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`,
    async stop() {
      await agent.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await adapters.close();
    },
  };
}

/** Why these settings cannot run an agent, or null when they can. */
export function agentSettingsProblem(config: Config): string | null {
  if (!config.natsUrl) return 'an agent joins a farm over NATS: set NATS_URL (and S3_* for shared storage)';
  // Without S3 the outputs would land in this machine's data folder, where the control plane (another
  // process, often another machine) cannot serve them: every capture would end as a broken link.
  if (!config.s3) return "an agent stores its captures where the control plane reads them: set S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY (and S3_BUCKET) to the api's object storage";
  return null;
}
