import type { Knex } from 'knex';
import type { CaptureSource } from '../../core/capture-spec.js';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import { ApiError, fieldError, notFound, validationError } from '../../core/errors.js';
import { buildCreateRequest, createContextOf } from '../options/create-request.js';
import type { QueryTree } from '../options/query-input.js';
import type { ScreenshotRow } from './screenshot-record.js';
import type { Caller } from '../http/state.js';
import type { ScreenshotDraft } from '../options/create-request.js';
import type { Route } from '../../grid/scheduling/routing.js';
import { queueUnavailable, type FarmDispatcher } from '../farm/farm-dispatcher.js';
import { INSERT_CHUNK, type DeleteScope, type RecordOwner, type ScreenshotRecords } from './screenshot-records.js';
import type { ListFilter, RecordWithOutputKinds, ScreenshotStore } from './screenshot-store.js';

/** How records are created beyond the drafts themselves. */
export interface CreateOptions {
  appConfigIds?: number[];
  /** batch and crawl jobs go to the queue's bulk tier, below single requests */
  bulk?: boolean;
  /**
   * runs first in the creating transaction; returns the owner the records belong to, and app
   * configurations it created there (a batch's hosting upload) that every record runs too
   */
  prepare?: (trx: Knex.Transaction) => Promise<RecordOwner & { appConfigIds?: number[] }>;
  /** per draft (same order), the filename template its app runs use ('' = the app's own) */
  runFilenames?: string[];
}

/** The application service behind the /screenshot operations. */
export class ScreenshotService {
  constructor(
    private readonly db: Db,
    private readonly store: ScreenshotStore,
    private readonly records: ScreenshotRecords,
    private readonly config: Config,
    private readonly farm: FarmDispatcher,
  ) {}

  /**
   * Validates a create query, checks the balance covers every record, and inserts the records as
   * `processing`. Nothing is created when any check fails.
   */
  async create(caller: Caller, query: QueryTree): Promise<ScreenshotRow[]> {
    const request = buildCreateRequest(query, createContextOf(this.config));
    const appConfigIds = await this.appConfigIds(caller, request.apps);
    return this.createDrafts(caller, request.drafts, { appConfigIds });
  }

  /**
   * Creates exactly one record (GET /screenshot/render answers one image): create's validation, then a 400
   * when the query names several urls or countries, before anything is created.
   */
  async createOne(caller: Caller, query: QueryTree): Promise<ScreenshotRow> {
    const request = buildCreateRequest(query, createContextOf(this.config));
    if (request.drafts.length !== 1) throw validationError({ url: ['must be one url (and one country): a render answers one image'], country: ['must be one country'] });
    const appConfigIds = await this.appConfigIds(caller, request.apps);
    return (await this.createDrafts(caller, request.drafts, { appConfigIds }))[0] as ScreenshotRow;
  }

  /** The configuration ids of user-defined app ids; 400 naming the unknown ones. */
  async appConfigIds(caller: Caller, appIds: string[]): Promise<number[]> {
    if (appIds.length === 0) return [];
    const known: { id: number; app_id: string }[] = await this.db('app_configs').where({ company_id: caller.companyId, hidden: false }).whereIn('app_id', appIds).select('id', 'app_id');
    const missing = appIds.filter((a) => !known.some((k) => k.app_id === a));
    if (missing.length > 0) throw fieldError('apps', `unknown app id(s): ${missing.join(', ')}; create them with POST /app/create`);
    return appIds.map((a) => Number((known.find((k) => k.app_id === a) as { id: number }).id));
  }

  /**
   * Creates the records of validated drafts (one create call, a batch or a crawl) and queues their jobs.
   * In one transaction: `prepare` (a batch or crawl row), the inserts, and the balance check against every
   * record's cost (counting credits held by records still processing: ScreenshotRecords.insertDrafts). Cache hits are answered at once.
   * Nothing is created when a check fails; a job that cannot be queued leaves its record `error`, never waiting.
   */
  async createDrafts(caller: Caller, drafts: ScreenshotDraft[], opts: CreateOptions = {}): Promise<ScreenshotRow[]> {
    const appConfigIds = opts.appConfigIds ?? [];
    // An identical capture of this account, finished within `cache` seconds, is reused: no browser work, no cost.
    const reuse = await Promise.all(drafts.map((d) => (d.fields.cache > 0 ? this.store.findReusable(caller.companyId, d.specHash, d.fields.cache) : Promise.resolve(null))));
    // Positions of the drafts that need a capture: the maps below stay linear for batches of thousands.
    const freshAt = drafts.flatMap((_, i) => (reuse[i] ? [] : [i]));
    const fresh = freshAt.map((i) => drafts[i] as ScreenshotDraft);
    const runFilename = (i: number): string => opts.runFilenames?.[i] ?? '';
    const routes = await this.farm.plan(fresh.map((d) => d.spec));

    // The API's single create (no batch or crawl row, no app, no cache hit): one statement, no transaction.
    const atOnce = !opts.prepare && appConfigIds.length === 0 && fresh.length === drafts.length && fresh.length > 0 && fresh.length <= INSERT_CHUNK;
    const { rows, owner } = atOnce
      ? {
          rows: await this.records.insertDraftsAtOnce(
            caller,
            fresh,
            routes.map((r) => r.routing),
          ),
          owner: {},
        }
      : await this.db.transaction(async (trx) => {
          const { appConfigIds: preparedApps = [], ...owner } = (await opts.prepare?.(trx)) ?? {};
          const apps = [...appConfigIds, ...preparedApps];
          // The records hold their cost on the account: 403 and a rollback when the balance cannot cover it.
          const inserted = await this.records.insertDrafts(trx, caller, fresh, { appConfigIds: apps, ...owner, routings: routes.map((r) => r.routing), runFilenames: freshAt.map(runFilename) });
          const byDraft = new Map<ScreenshotDraft, ScreenshotRow>(fresh.map((d, i) => [d, inserted[i] as ScreenshotRow]));
          const out: ScreenshotRow[] = [];
          for (const [i, draft] of drafts.entries()) {
            const source = reuse[i];
            out.push(source ? await this.records.insertCacheHit(trx, caller, draft, source, apps, owner, runFilename(i)) : (byDraft.get(draft) as ScreenshotRow));
          }
          return { rows: out, owner };
        });

    const work = fresh.map((draft, i) => {
      const row = rows[freshAt[i] as number] as ScreenshotRow;
      return { id: row.id, companyId: caller.companyId, priority: row.priority, spec: draft.spec, route: routes[i] as Route, requestId: row.request_id };
    });
    // A job that cannot be queued ends its record (the dispatcher says which).
    const notQueued = await this.farm.dispatch(work, opts.bulk ?? false);
    // A single request none of whose jobs could be queued is told so (batches and crawls keep their records).
    if (notQueued.length > 0 && notQueued.length === work.length && Object.keys(owner).length === 0) throw queueUnavailable();
    if (notQueued.length === 0) return rows;
    // Those records ended meanwhile: answered as they are now, so a batch counts them as it counts cache hits.
    const ended = new Map((await this.store.byIds(caller.companyId, notQueued)).map((r) => [r.id, r]));
    return rows.map((r) => ended.get(r.id) ?? r);
  }

  async get(caller: Caller, id: number): Promise<ScreenshotRow> {
    const row = await this.store.get(caller.companyId, id);
    if (!row) throw notFound('Screenshot');
    return row;
  }

  /** The record's status alone (404 when the caller has no such record). */
  async status(caller: Caller, id: number): Promise<string> {
    const status = await this.store.status(caller.companyId, id);
    if (status === null) throw notFound('Screenshot');
    return status;
  }

  /** The source a record rendered, as sent (kept in its stored spec); 404 when the caller has no such record or it rendered a url. */
  async source(caller: Caller, id: number): Promise<CaptureSource> {
    const spec = await this.store.captureSpec(caller.companyId, id);
    if (!spec) throw notFound('Screenshot');
    if (!spec.source) throw new ApiError(404, 'NOT_FOUND', 'This screenshot has no source: it rendered a url, or its source was deleted');
    return spec.source;
  }

  /** The record with the kinds of files it has (html, markdown, pdf, video …), read together; 404 when the caller has no such record. */
  async withOutputKinds(caller: Caller, id: number): Promise<RecordWithOutputKinds> {
    const found = await this.store.getWithOutputKinds(caller.companyId, id);
    if (!found) throw notFound('Screenshot');
    return found;
  }

  async list(caller: Caller, filter: ListFilter): Promise<ScreenshotRow[]> {
    return this.store.list(caller.companyId, filter);
  }

  /**
   * Deletes part of a record: `image` its stored files, `url` the addresses it holds, `metadata` what
   * was sent with the request, `all` the record itself with its files.
   */
  async delete(caller: Caller, id: number, scope: DeleteScope): Promise<void> {
    const row = await this.get(caller, id);
    await this.records.scrub(caller.companyId, id, scope);
    // A record deleted while processing: its job is withdrawn, so no browser works for it any longer.
    if (scope === 'all' && row.status === 'processing') await this.farm.withdraw([id]);
  }
}
