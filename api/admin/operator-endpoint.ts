import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import { ApiError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { bodyParser } from '../http/body-parser.js';
import { createHttpServer } from '../http/http-server.js';
import { errorEnvelope } from '../http/error-envelope.js';
import type { AppState } from '../http/state.js';
import { isOperatorCommand, runOperatorCommand } from './operator-commands.js';
import { announceRunningService, isOperatorSecret, operatorSecret, withdrawRunningService } from './running-service.js';

/** Where operator commands reach the service: POST /operator/<command name> with the command's input as JSON. */
export const OPERATOR_PATH = '/operator/';

/** An operator command's input is a handful of fields: 64 KiB is far more than any needs. */
const BODY_LIMIT = '64kb';

export interface OperatorEndpoint {
  url: string;
  stop(): Promise<void>;
}

/**
 * The operator endpoint of a service on the embedded database (issue 25): while it runs it is the one
 * process that may open the database, so `shotfarm users create`, `keys`, `credits` and `migrate` run here,
 * the same service function as when the command line opens the database itself (operator-commands.ts).
 * It listens on loopback only, on a port of its own (never the public one, which may face the internet),
 * and answers only a caller presenting the data folder's secret (running-service.ts). Errors answer in the
 * API's envelope; the command line prints their sentence.
 */
export async function startOperatorEndpoint(opts: { db: Db; config: Config; serviceUrl: string; log: Logger }): Promise<OperatorEndpoint> {
  const secret = operatorSecret(opts.config.dataDir);
  const app = new Koa<AppState>();
  app.use(errorEnvelope(opts.log));
  app.use(async (ctx, next) => {
    const presented = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1] ?? '';
    // Before anything of the request is read.
    if (!isOperatorSecret(presented, secret)) throw new ApiError(401, 'UNAUTHORIZED', 'The operator endpoint needs the data folder secret (<data dir>/operator-secret)');
    await next();
  });
  app.use(bodyParser({ json: true, multipart: false, urlencoded: false, text: false, jsonLimit: BODY_LIMIT }));
  app.use(async (ctx) => {
    const name = ctx.path.startsWith(OPERATOR_PATH) ? ctx.path.slice(OPERATOR_PATH.length) : '';
    if (!isOperatorCommand(name)) throw new ApiError(404, 'NOT_FOUND', `No operator command ${JSON.stringify(name)}`);
    if (ctx.method !== 'POST') throw new ApiError(405, 'METHOD_NOT_ALLOWED', 'Operator commands are POSTed');
    opts.log.info({ command: name }, 'operator command');
    ctx.body = { success: true, data: await runOperatorCommand(name, { db: opts.db, config: opts.config }, (ctx.request as { body?: unknown }).body ?? {}) };
  });
  const callback = app.callback();
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHttpServer((req, res) => void callback(req, res)).listen(0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  announceRunningService(opts.config.dataDir, { pid: process.pid, operator_url: url, service_url: opts.serviceUrl, public_url: opts.config.publicUrl });
  return {
    url,
    async stop() {
      withdrawRunningService(opts.config.dataDir);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
