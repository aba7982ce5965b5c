import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../core/config/config.js';
import { connectDatabase, type Db } from '../core/db/connect.js';
import { migrateLatest } from '../core/db/migrate.js';
import { newContainer, TOKENS } from '../core/di/tokens.js';
import { createLogger, type Logger } from '../core/logger.js';
import { ensureBootstrapKey, resolveJwtSecret } from './accounts/bootstrap.js';
import { JwtService } from './accounts/jwt.js';
import { buildApp } from './app.js';
import { createHttpServer } from './http/http-server.js';
import { createRateLimiter } from './http/rate-limit.js';
import { ScreenshotService } from './screenshots/screenshot-service.js';
import { ScreenshotStore } from './screenshots/screenshot-store.js';

export interface ControlPlane {
  container: DependencyContainer;
  url: string;
  bootstrapKey: string | null;
  stop(): Promise<void>;
}

export interface ControlPlaneOptions {
  /** generate and keep a bootstrap key in the data dir when none is configured (embedded mode) */
  generateBootstrapKey: boolean;
  /** an already opened database (tests pass a throwaway one) */
  db?: Db;
  logger?: Logger;
}

/**
 * Starts the control plane: database (migrated), accounts, services and the HTTP server, in that
 * order; stop() closes them in reverse.
 */
export async function startControlPlane(config: Config, opts: ControlPlaneOptions): Promise<ControlPlane> {
  const c = newContainer();
  const log = opts.logger ?? createLogger(config.logLevel);
  const db = opts.db ?? connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateLatest(db);
  const bootstrapKey = await ensureBootstrapKey(db, config, { generate: opts.generateBootstrapKey });
  const rateLimiter = await createRateLimiter(config.rateLimitPerMinute, config.databaseUrl ? db : null);

  c.register(TOKENS.Config, { useValue: config });
  c.register(TOKENS.Db, { useValue: db });
  c.register(TOKENS.Logger, { useValue: log });
  c.register(TOKENS.RateLimiter, { useValue: rateLimiter });
  c.register(TOKENS.Jwt, { useValue: new JwtService(resolveJwtSecret(config)) });
  c.register(TOKENS.ScreenshotStore, { useFactory: (r) => new ScreenshotStore(r.resolve(TOKENS.Db)) });
  const screenshots = new ScreenshotService(db, c.resolve<ScreenshotStore>(TOKENS.ScreenshotStore), config);
  c.register(TOKENS.ScreenshotService, { useValue: screenshots });

  const app = buildApp({ config, db, log, jwt: c.resolve(TOKENS.Jwt), rateLimiter, screenshots });
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHttpServer(app.callback()).listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`;
  log.info({ url }, 'control plane listening');

  return {
    container: c,
    url,
    bootstrapKey,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (!opts.db) await db.destroy();
    },
  };
}
