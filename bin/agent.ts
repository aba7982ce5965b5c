import { randomBytes } from 'node:crypto';
import type { Config } from '../core/config/config.js';
import { registerAdapters } from '../core/di/adapters.js';
import { newContainer } from '../core/di/tokens.js';
import { createLogger, type Logger } from '../core/logger.js';
import { FarmMetrics } from '../core/metrics/farm-metrics.js';
import { objectLinkSecret, objectStoreAdapters } from '../core/storage/object-store-adapters.js';
import { driverAdapters } from '../drivers/driver-adapters.js';
import { gridAdapters } from '../grid/grid-adapters.js';
import { startAgentHttp } from '../node-agent/agent-http.js';
import { createAgent } from '../node-agent/create-agent.js';
import { stopOnSignal } from './stop-on-signal.js';

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
  const server = await startAgentHttp(agent, metrics, config.port, config.host, config.metricsToken);
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

/**
 * The `shotfarm agent` process: refuses settings that cannot run an agent (exit code 2), joins the farm, and
 * leaves on SIGTERM or once an operator's drain request (`shotfarm nodes drain ID`) has been carried out.
 * It loads no module of the control plane (api/): an agent holds no database credentials.
 */
export async function agentProcess(cfg: Config): Promise<void> {
  const problem = agentSettingsProblem(cfg);
  if (problem) {
    process.stderr.write(`shotfarm: ${problem}\n`);
    process.exit(2);
  }
  const log = createLogger(cfg.logLevel);
  const agent = await runAgent(cfg, log);
  const stop = stopOnSignal([agent.stop]);
  // `shotfarm nodes drain ID`: once the jobs in flight have finished the agent leaves, exit code 0.
  void agent.drained.then(() => stop('drain request carried out'));
  process.stdout.write(`shotfarm agent ${cfg.agent.nodeId} is taking ${cfg.agent.browsers.join(', ')} jobs (${cfg.agent.slots} slots); health and metrics at ${agent.url}\n`);
}
