import type { Config } from '../../core/config/config.js';
import { connectDatabase } from '../db/connect.js';
import { migrateLatest } from '../db/migrate.js';
import { ApiError, type FieldErrors } from '../../core/errors.js';
import { OPERATOR_PATH } from './operator-endpoint.js';
import { runOperatorCommand, type OperatorCommandName, type OperatorInput, type OperatorOutput } from './operator-commands.js';
import { operatorSecret, runningService, type RunningService } from './running-service.js';

/**
 * An operator command waits this long for the running service: it runs one or two statements, but PGlite
 * under a loaded machine took seconds for a migration check; past this the command says so.
 */
const SERVICE_TIMEOUT_MS = 60_000;

/**
 * Runs an operator command where the database is. On the embedded database (no DATABASE_URL) a running
 * service holds the folder, so the command goes to its operator endpoint and runs there, with the service's
 * own settings (its public URL in the links it prints). With no service running, or on Postgres, the
 * command opens the database itself (migrated first, as the service does at start) and runs the same
 * function. A refusal throws the service function's ApiError; a folder another process holds without a
 * service endpoint (a service still starting, another command) throws DataDirInUse naming that process.
 */
export async function operate<N extends OperatorCommandName>(config: Config, name: N, input: OperatorInput<N>): Promise<OperatorOutput<N>> {
  const service = config.databaseUrl === null ? liveService(config.dataDir) : null;
  if (service) {
    const answer = await callService<N>(service, readableSecret(config.dataDir), name, input);
    if (answer !== UNREACHABLE) return answer;
  }
  const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (name !== 'migrate') await migrateLatest(db);
    return await runOperatorCommand(name, { db, config }, input);
  } finally {
    await db.destroy();
  }
}

/** The service the data folder names, if its process still runs (a killed one leaves its file behind). */
function liveService(dataDir: string): RunningService | null {
  const service = runningService(dataDir);
  if (!service) return null;
  try {
    process.kill(service.pid, 0);
    return service;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? service : null;
  }
}

/** The data folder's secret; a user who cannot read it is told whose command this is. */
function readableSecret(dataDir: string): string {
  try {
    return operatorSecret(dataDir);
  } catch (err) {
    throw new ApiError(403, 'FORBIDDEN', `the data folder's operator secret cannot be read (${(err as Error).message}): run the command as the user the service runs as`);
  }
}

const UNREACHABLE = Symbol('the service did not answer');

async function callService<N extends OperatorCommandName>(service: RunningService, secret: string, name: N, input: OperatorInput<N>): Promise<OperatorOutput<N> | typeof UNREACHABLE> {
  let res: Response;
  try {
    res = await fetch(`${service.operator_url}${OPERATOR_PATH}${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS),
    });
  } catch (err) {
    // Refused: the service stopped between its file and our call; the database is free (or its lock stale).
    if ((err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return UNREACHABLE;
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', `the running service (pid ${service.pid}) did not answer at ${service.operator_url}: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => null)) as { success?: boolean; data?: unknown; error?: string; code?: string; fields?: FieldErrors } | null;
  if (res.ok && body?.success === true) return body.data as OperatorOutput<N>;
  throw new ApiError(res.status, body?.code ?? 'OPERATOR_ENDPOINT', body?.error ?? `the running service answered HTTP ${res.status}`, body?.fields ? { fields: body.fields } : {});
}
