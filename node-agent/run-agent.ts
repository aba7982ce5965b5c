import { randomBytes } from 'node:crypto';
import type { Config } from '../core/config/config.js';
import type { Logger } from '../core/logger.js';
import { FarmMetrics } from '../core/metrics/farm-metrics.js';
import { openFarmParts } from '../grid/farm-parts.js';
import { startAgentHttp } from './agent-http.js';
import { createAgent } from './create-agent.js';

/**
 * `shotfarm agent`: a browser machine joining the farm. It holds NATS and storage settings only, never
 * database credentials. Returns the stop function that drains it (SIGTERM).
 */
export async function runAgent(config: Config, log: Logger): Promise<{ stop: () => Promise<void>; url: string }> {
  if (!config.natsUrl) throw new Error('an agent joins a farm over NATS: set NATS_URL (and S3_* for shared storage)');
  // An agent never signs object links; the store still wants a secret, so it gets one of its own.
  const parts = await openFarmParts(config, randomBytes(32).toString('hex'), log, `shotfarm-agent-${config.agent.nodeId}`);
  let agentRef: Awaited<ReturnType<typeof createAgent>> | null = null;
  const metrics = new FarmMetrics({ inFlight: () => agentRef?.status().inFlight ?? 0, poolSizes: () => agentRef?.poolSizes() ?? {} });
  const agent = await createAgent(config, parts, log, metrics.agentObservers(config.agent.driver));
  agentRef = agent;
  await agent.start();
  const server = await startAgentHttp(agent, metrics, config.port, config.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    url: `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`,
    async stop() {
      await agent.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await parts.close();
    },
  };
}
