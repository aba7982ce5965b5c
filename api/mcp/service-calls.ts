import { ApiError } from '../../core/errors.js';
import { toBatchRecord } from '../batches/batch-record.js';
import type { RouteDeps } from '../http/route.js';
import type { Caller } from '../http/state.js';
import { toMonitorRecord } from '../monitors/monitor-record.js';
import { DEVICES } from '../options/devices.js';
import type { QueryTree } from '../options/query-input.js';
import { findFile, readAll } from '../retrieval/file-access.js';
import { toScreenshotRecord } from '../screenshots/screenshot-record.js';
import { McpCallError, type ApiRecord, type ShotfarmCalls } from './shotfarm-calls.js';

/** The API's refusal (an exposed ApiError) as the agent's tool error; anything else goes on as an internal error. */
async function asCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ApiError && err.expose) throw new McpCallError(err.message, err.status, err.extra.fields);
    throw err;
  }
}

/**
 * ShotfarmCalls of /api/v1/mcp: the control plane's services, called in process with the caller the
 * request authenticated, as the routes call them (screenshot create, info and thumbnail, batch create and
 * info, monitor create, the device list), so the credits, limits and isolation are the API's without a
 * second HTTP trip through the service's own front door.
 */
export class ServiceCalls implements ShotfarmCalls {
  constructor(
    private readonly deps: RouteDeps,
    private readonly caller: Caller,
  ) {}

  createScreenshots(fields: QueryTree): Promise<ApiRecord[]> {
    return asCall(async () => (await this.deps.screenshots.create(this.caller, fields)).map((r) => toScreenshotRecord(r, 'create') as ApiRecord));
  }

  screenshot(id: number, waitMs: number, signal: AbortSignal): Promise<ApiRecord> {
    return asCall(async () => {
      if (waitMs > 0 && (await this.deps.screenshots.status(this.caller, id)) === 'processing') await this.deps.events.waitFor(id, waitMs, signal);
      return toScreenshotRecord(await this.deps.screenshots.get(this.caller, id)) as ApiRecord;
    });
  }

  image(id: number): Promise<Buffer> {
    return asCall(async () => readAll(this.deps.objects, (await findFile(this.deps.db, this.caller.companyId, id, 'image', 1)).storage_key));
  }

  markdown(id: number): Promise<string> {
    return asCall(async () => (await readAll(this.deps.objects, (await findFile(this.deps.db, this.caller.companyId, id, 'markdown', null)).storage_key)).toString('utf8'));
  }

  imageLink(id: number): string {
    return this.deps.imageLinks.url(id);
  }

  createBatch(urls: string[], fields: QueryTree): Promise<ApiRecord> {
    return asCall(async () => {
      const { batch } = await this.deps.batches.create(this.caller, { fields, fileText: urls.join('\n'), idempotencyKey: null });
      return toBatchRecord(batch, this.deps.batchLinks.zipUrl(batch)) as ApiRecord;
    });
  }

  batch(id: number): Promise<ApiRecord> {
    return asCall(async () => {
      const batch = await this.deps.batches.get(this.caller, id);
      return toBatchRecord(batch, this.deps.batchLinks.zipUrl(batch)) as ApiRecord;
    });
  }

  createMonitor(fields: QueryTree): Promise<ApiRecord> {
    return asCall(async () => toMonitorRecord(await this.deps.monitors.create(this.caller, fields)) as ApiRecord);
  }

  devices(): Promise<Record<string, unknown>[]> {
    return Promise.resolve(DEVICES as unknown as Record<string, unknown>[]);
  }
}
