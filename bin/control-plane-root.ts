import type { DependencyContainer } from 'tsyringe';
import { resolveJwtSecret } from '../api/accounts/bootstrap.js';
import { apiAdapters } from '../api/api-adapters.js';
import type { ControlPlane } from '../api/control-plane.js';
import { connectDatabase } from '../api/db/connect.js';
import type { Config } from '../core/config/config.js';
import { registerAdapters, type AdapterCatalog, type RegisteredAdapters } from '../core/di/adapters.js';
import { newContainer, TOKENS } from '../core/di/tokens.js';
import type { createLogger } from '../core/logger.js';
import { objectLinkSecret, objectStoreAdapters } from '../core/storage/object-store-adapters.js';
import { gridAdapters } from '../grid/grid-adapters.js';

/**
 * The container of a control-plane process (serve, api): its database, and the adapters core/di/adapters.ts
 * picks from the configuration (`serve` adds the browser driver of its embedded agent). close() closes them
 * in reverse.
 */
export async function controlPlaneContainer(
  cfg: Config,
  log: ReturnType<typeof createLogger>,
  name: string,
  extra: Partial<AdapterCatalog> = {},
): Promise<{ container: DependencyContainer; adapters: RegisteredAdapters; close(): Promise<void> }> {
  const container = newContainer();
  const db = await connectDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  container.register(TOKENS.Db, { useValue: db });
  const adapters = await registerAdapters(container, cfg, { ...gridAdapters(name), ...objectStoreAdapters(objectLinkSecret(resolveJwtSecret(cfg))), ...extra, ...apiAdapters }, log);
  return {
    container,
    adapters,
    async close() {
      await adapters.close();
      await db.destroy();
    },
  };
}

/** What a started control plane prints: its URL, the API reference, and in embedded mode a first key and curl line. */
export function printWelcome(plane: ControlPlane, cfg: Config): void {
  const lines = ['', `shotfarm is running at ${plane.url}`, `  OpenAPI: ${plane.url}/api/v1/openapi.json (rendered at ${plane.url}/docs)`];
  // Said at start because it changes the answers' shape from the spec's.
  if (cfg.clientCompat !== 'spec') lines.push(`  Client compatibility: ${cfg.clientCompat} (SHOTFARM_CLIENT_COMPAT): a create of one screenshot answers an object, batch create the Batch object`);
  if (plane.bootstrapKey) {
    lines.push(`  API key: ${plane.bootstrapKey}`, '', 'Take a first screenshot:', `  curl '${plane.url}/api/v1/screenshot/create?url=https://example.com&key=${plane.bootstrapKey}'`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
