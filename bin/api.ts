import { startControlPlane } from '../api/control-plane.js';
import type { Config } from '../core/config/config.js';
import { createLogger } from '../core/logger.js';
import { controlPlaneContainer, printWelcome } from './control-plane-root.js';
import { stopOnSignal } from './stop-on-signal.js';

/** `shotfarm api`: the control plane alone (distributed mode: agents join over NATS). */
export async function api(cfg: Config): Promise<void> {
  const log = createLogger(cfg.logLevel);
  const { container, adapters, close } = await controlPlaneContainer(cfg, log, 'shotfarm-api');
  const plane = await startControlPlane(cfg, { generateBootstrapKey: false, container, logger: log, operatorEndpoint: true });
  adapters.assertResolved();
  stopOnSignal([close, plane.stop]);
  printWelcome(plane, cfg);
}
