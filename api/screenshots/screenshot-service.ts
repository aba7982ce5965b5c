import type { Config } from '../../core/config/config.js';
import type { Db } from '../../core/db/connect.js';
import { fieldError, insufficientBalance, notFound } from '../../core/errors.js';
import { buildCreateRequest } from '../../core/request/create-request.js';
import type { QueryTree } from '../../core/request/query-input.js';
import type { ScreenshotRow } from '../../core/screenshot-record.js';
import type { Caller } from '../http/state.js';
import type { ListFilter, ScreenshotStore } from './screenshot-store.js';

/** Called with the records a create call inserted, after its transaction committed (the farm's dispatch). */
export type CreatedListener = (rows: ScreenshotRow[]) => Promise<void>;

export type DeleteScope = 'image' | 'url' | 'metadata' | 'all';

/** The application service behind the /screenshot operations. */
export class ScreenshotService {
  private readonly createdListeners: CreatedListener[] = [];

  constructor(private readonly db: Db, private readonly store: ScreenshotStore, private readonly config: Config) {}

  onCreated(listener: CreatedListener): void {
    this.createdListeners.push(listener);
  }

  /**
   * Validates a create query, checks the balance covers every record, and inserts the records as
   * `processing`. Nothing is created when any check fails.
   */
  async create(caller: Caller, query: QueryTree): Promise<ScreenshotRow[]> {
    const request = buildCreateRequest(query, { pricing: this.config.pricing, cacheDefaultSeconds: this.config.cacheDefaultSeconds });
    const appConfigIds: number[] = [];
    if (request.apps.length > 0) {
      const known = await this.db('app_configs').where({ company_id: caller.companyId }).whereIn('app_id', request.apps).select('id', 'app_id');
      const missing = request.apps.filter((a) => !known.some((k: { app_id: string }) => k.app_id === a));
      if (missing.length > 0) throw fieldError('apps', `unknown app id(s): ${missing.join(', ')}; create them with POST /app/create`);
      appConfigIds.push(...request.apps.map((a) => Number(known.find((k: { app_id: string }) => k.app_id === a).id)));
    }
    const total = request.drafts.reduce((sum, d) => sum + d.fields.cost, 0);
    const rows = await this.db.transaction(async (trx) => {
      // Lock the account row: concurrent creates of one account are checked one after the other.
      const company = await trx('companies').where({ id: caller.companyId }).forUpdate().first('balance');
      const balance = Number(company?.balance ?? 0);
      const available = balance - (await this.store.reservedCredits(trx, caller.companyId));
      if (balance <= 0 || available < total) {
        throw insufficientBalance(`Insufficient balance: this request costs ${total} credit(s) and ${Math.max(0, available)} are available`);
      }
      return this.store.insert(trx, caller.companyId, caller.apiKeyId, request.drafts, { appConfigIds });
    });
    for (const listener of this.createdListeners) await listener(rows);
    return rows;
  }

  async get(caller: Caller, id: number): Promise<ScreenshotRow> {
    const row = await this.store.get(caller.companyId, id);
    if (!row) throw notFound('Screenshot');
    return row;
  }

  async outputKinds(caller: Caller, id: number): Promise<Set<string>> {
    return this.store.outputKinds(caller.companyId, id);
  }

  async list(caller: Caller, filter: ListFilter): Promise<ScreenshotRow[]> {
    return this.store.list(caller.companyId, filter);
  }

  /**
   * Deletes part of a record: `image` its stored files, `url` the addresses it holds, `metadata` what
   * was sent with the request, `all` the record itself with its files.
   */
  async delete(caller: Caller, id: number, scope: DeleteScope): Promise<void> {
    await this.get(caller, id);
    switch (scope) {
      case 'image':
        await this.db('screenshot_files').where({ company_id: caller.companyId, screenshot_id: id }).delete();
        return;
      case 'url': {
        // The stored CaptureSpec holds the URL too: scrub it there as well.
        const spec = await this.store.captureSpec(caller.companyId, id);
        await this.store.update(caller.companyId, id, { url: '', final_url: '', final_urls: [], links: [], capture_spec: { ...spec, url: '' } });
        return;
      }
      case 'metadata': {
        const spec = await this.store.captureSpec(caller.companyId, id);
        await this.store.update(caller.companyId, id, {
          cookie: '', header: '', post_data: '', script: '', script_inline: '', steps: [], trackers: [],
          capture_spec: { ...spec, cookies: [], headers: [], postData: null, scripts: [], scriptInline: null, steps: [], trackers: [] },
        });
        return;
      }
      case 'all':
        await this.store.remove(caller.companyId, id);
    }
  }
}
