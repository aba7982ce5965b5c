import type { Knex } from 'knex';
import { NOTHING_BLOCKED } from '../../core/capture-spec.js';
import type { CaptureResult } from '../../core/contracts/job-queue.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import type { ErrorCause } from '../../core/error-cause.js';
import type { Logger } from '../../core/logger.js';
import type { ScreenshotDraft } from '../options/create-request.js';
import type { ScreenshotRow } from './screenshot-record.js';
import { heldBy, holdCredits, holdCreditsStatement, refuseHold, releaseCredits } from '../accounts/held-credits.js';
import { SETTLE_HELD_CTES } from '../accounts/ledger.js';
import type { ScreenshotEvents } from './screenshot-events.js';
import { normaliseRow, RECORD_COLUMNS, toDbValues } from './screenshot-columns.js';
import type { ScreenshotStore } from './screenshot-store.js';
import { deleteUnreferencedObjects } from './stored-files.js';

/** The ledger reason of a screenshot's debit; with the screenshot id it is unique, so it happens once. */
export const SCREENSHOT_DEBIT = 'screenshot';

/** Rows per INSERT statement: 200 rows × ~75 columns stays far below Postgres' 65,535 parameters. */
export const INSERT_CHUNK = 200;

export type RecordOutcome = 'applied' | 'duplicate' | 'orphan';

/** A screenshot its result ended, as the batches and crawls it belongs to need to hear of it. */
export interface EndedByResult {
  id: number;
  companyId: number;
  status: 'finished' | 'error';
  batchId: number | null;
  crawlId: number | null;
  monitorId: number | null;
  links: string[];
}

/** Who a record belongs to beyond its account (a batch, a crawl or a monitor). */
export interface RecordOwner {
  batch_id?: number;
  crawl_id?: number;
  monitor_id?: number;
}

/** A monitor run's comparison with the previous shot, as the record keeps it (extra fields and a `diff` file). */
export interface Comparison {
  changeRatio: number;
  textChanges: Record<string, unknown> | null;
  diff: { key: string; contentType: string; size: number } | null;
}

export type DeleteScope = 'image' | 'url' | 'metadata' | 'all';

/** Who creates records: the account, the key, and the HTTP request (its id is stored on each record). */
export interface RecordCreator {
  companyId: number;
  apiKeyId: number | null;
  requestId?: string;
}

/** How a record ended, as the results metric counts it: a cancel ends the record `error` too, but is no failure. */
export type EndingStatus = 'finished' | 'error' | 'cancelled';

/**
 * The one writer of a screenshot record: its status, result fields and files, and the status its app
 * runs take from it. A record is inserted `processing` with its app runs `pending`; it leaves
 * `processing` once, by its result or by an error that ends it without one (cancelled, never queued),
 * and every such ending does the same things: the record's pending app runs are queued (the
 * runner then runs the apps that run on errors and ends the others with the reason), the app runner is
 * woken when there are any, the requests waiting for the record (`info?wait`) are woken, the outcome is
 * logged once (with the record's request_id) and counted (onEnded).
 */
export class ScreenshotRecords {
  private readonly runsQueuedListeners: (() => void)[] = [];
  private readonly endedListeners: ((status: EndingStatus, count: number) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly store: ScreenshotStore,
    private readonly objects: ObjectStore,
    private readonly events: ScreenshotEvents,
    private readonly log: Logger,
  ) {}

  /** Runs (synchronously, after the commit) when an ending queued app runs: the runner starts them now. */
  onAppRunsQueued(listener: () => void): void {
    this.runsQueuedListeners.push(listener);
  }

  /** Runs after every ending with how many records ended so (the results metric). */
  onEnded(listener: (status: EndingStatus, count: number) => void): void {
    this.endedListeners.push(listener);
  }

  /**
   * Inserts validated drafts as `processing` records with a `pending` run per app, holding their cost on the
   * account (api/accounts/held-credits.ts); returns the rows in draft order. Refused with 403 when the account's
   * balance is not positive or, less what it holds already, cannot cover them: the caller's transaction then
   * rolls back and nothing is created. With no drafts (a create answered from the cache) only the balance is checked.
   */
  async insertDrafts(
    trx: Knex.Transaction,
    caller: RecordCreator,
    drafts: ScreenshotDraft[],
    opts: RecordOwner & { appConfigIds?: number[]; routings?: string[]; runFilenames?: string[] } = {},
  ): Promise<ScreenshotRow[]> {
    if (drafts.length === 0) {
      await holdCredits(trx, caller.companyId, 0);
      return [];
    }
    const { appConfigIds = [], routings = [], runFilenames = [], ...owner } = opts;
    const rows = drafts.map((d, i) => draftValues(caller, d, routings[i] ?? '', owner));
    const inserted: ScreenshotRow[] = [];
    // Chunks bound the statement size (a batch inserts up to thousands of rows); ids ascend in insert order.
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = (await trx('screenshots')
        .insert(rows.slice(i, i + INSERT_CHUNK))
        .returning(RECORD_COLUMNS)) as Record<string, unknown>[];
      inserted.push(...chunk.map(normaliseRow).sort((a, b) => a.id - b.id));
    }
    // Each requested app gets a pending run per screenshot: it runs once the screenshot ends.
    const runs = inserted.flatMap((r, i) =>
      appConfigIds.map((appConfigId) => ({ company_id: caller.companyId, screenshot_id: r.id, app_config_id: appConfigId, status: 'pending', filename: runFilenames[i] ?? '' })),
    );
    if (runs.length > 0) await trx('app_runs').insert(runs);
    // Last: the account's row stays locked from this UPDATE to the commit, and creates of one account wait on it.
    await holdCredits(
      trx,
      caller.companyId,
      inserted.reduce((sum, r) => sum + r.cost, 0),
    );
    // A record without apps has no runs: no query to learn so.
    return runs.length > 0 ? this.store.withApps(inserted, trx) : inserted.map((r) => ({ ...r, apps: [] }));
  }

  /**
   * insertDrafts as one statement, outside any transaction, for a create of at most INSERT_CHUNK records
   * with no owner and no app (GET /screenshot/create, the hot path): the hold is a CTE, and every row takes
   * the account id it returns as its company_id. A refused hold returns no row, so company_id is NULL and
   * NOT NULL refuses the whole statement: nothing inserted, nothing held (then the 403 as holdCredits says
   * it). BEGIN, the UPDATE and COMMIT were three of the create's four statements (statements-per-capture.ts).
   */
  async insertDraftsAtOnce(caller: RecordCreator, drafts: ScreenshotDraft[], routings: string[]): Promise<ScreenshotRow[]> {
    if (drafts.length === 0 || drafts.length > INSERT_CHUNK) throw new Error(`insertDraftsAtOnce takes 1 to ${INSERT_CHUNK} drafts, got ${drafts.length}`);
    const amount = drafts.reduce((sum, d) => sum + d.fields.cost, 0);
    const rows = drafts.map((d, i) => ({ ...draftValues(caller, d, routings[i] ?? '', {}), company_id: this.db.raw('(select id from held)') }));
    try {
      const inserted = (await this.db
        .with('held', holdCreditsStatement(this.db, caller.companyId, amount))
        .insert(rows)
        .into('screenshots')
        .returning(RECORD_COLUMNS)) as Record<string, unknown>[];
      return inserted
        .map(normaliseRow)
        .sort((a, b) => a.id - b.id)
        .map((r) => ({ ...r, apps: [] }));
    } catch (err) {
      if ((err as { code?: string; column?: string }).code === '23502' && (err as { column?: string }).column === 'company_id') await refuseHold(this.db, caller.companyId, amount);
      throw err;
    }
  }

  /**
   * A new record answered from an earlier capture: finished at once, at cost 0, with the earlier
   * record's results and the same stored files (the file rows are copied, the objects shared).
   */
  async insertCacheHit(
    trx: Knex.Transaction,
    caller: RecordCreator,
    draft: ScreenshotDraft,
    sourceId: number,
    appConfigIds: number[],
    owner: RecordOwner = {},
    runFilename = '',
  ): Promise<ScreenshotRow> {
    const source = await trx('screenshots')
      .where({ company_id: caller.companyId, id: sourceId })
      .first('final_url', 'final_urls', 'response_code', 'links', 'trackers', 'user_agent', 'warnings', 'blank', 'blocked', 'page_metadata', 'browser_info', 'node_id');
    const [row] = await trx('screenshots')
      .insert(
        toDbValues({
          ...draft.fields,
          ...owner,
          ...source,
          final_urls: source.final_urls,
          links: source.links,
          trackers: source.trackers,
          page_metadata: source.page_metadata ?? null,
          // The request's warnings, then the capture's; a same-worded request warning of the source once.
          warnings: [...new Set([...draft.fields.warnings, ...(source.warnings as string[])])],
          user_agent: draft.fields.user_agent || source.user_agent,
          company_id: caller.companyId,
          api_key_id: caller.apiKeyId,
          request_id: caller.requestId ?? '',
          status: 'finished',
          cost: 0,
          routing: `cache:${sourceId}`,
          capture_spec: draft.spec,
          spec_hash: draft.specHash,
          finished_at: trx.fn.now(),
        }),
      )
      .returning('id');
    const id = Number(row.id);
    const files = await trx('screenshot_files').where({ screenshot_id: sourceId }).select('kind', 'shot', 'storage_key', 'content_type', 'size_bytes');
    if (files.length > 0) await trx('screenshot_files').insert(files.map((f: Record<string, unknown>) => ({ ...f, company_id: caller.companyId, screenshot_id: id })));
    // Apps still run for a cached record: it is finished, so its runs start queued (the caller's commit is before anyone waits for it).
    if (appConfigIds.length > 0)
      await trx('app_runs').insert(appConfigIds.map((a) => ({ company_id: caller.companyId, screenshot_id: id, app_config_id: a, status: 'queued', filename: runFilename })));
    const inserted = await trx('screenshots').where({ id }).first(RECORD_COLUMNS);
    return (await this.store.withApps([normaliseRow(inserted)], trx))[0] as ScreenshotRow;
  }

  /**
   * Applies capture results, idempotently, in one statement (atomic without BEGIN and COMMIT): a redelivered or
   * duplicated result finds its record no longer `processing` and changes nothing. A finished record is charged
   * its cost once, through the ledger; an error costs nothing (its cost becomes 0). Returns, in the order of
   * `results`, each one's outcome and, when it was applied, what the record's batch or crawl needs. The ids must
   * differ (the recorder sends a second result of one id in a later call); should the statement fail, none is applied.
   */
  async applyResults(results: CaptureResult[]): Promise<{ outcome: RecordOutcome; ended?: EndedByResult }[]> {
    if (results.length === 0) return [];
    if (new Set(results.map((r) => r.id)).size !== results.length) throw new Error('applyResults takes results of distinct records');
    // Every result as one JSON row of the record's new column values (jsonb_to_recordset below): one binding
    // whatever the number of results, so the statement text is the same for every batch size.
    const input = results.map((r) => {
      const finished = r.status === 'finished';
      return {
        id: r.id,
        status: r.status,
        error: finished ? '' : r.error || 'The capture failed',
        // An agent older than the field says no cause: its error was the capture's, not the page's.
        error_cause: finished ? null : (r.errorCause ?? 'capture_failed'),
        final_url: r.finalUrl,
        final_urls: r.finalUrls,
        response_code: r.responseCode,
        links: r.links,
        trackers: r.trackers,
        user_agent: r.userAgent,
        warnings: r.warnings,
        timings: r.timings,
        // An agent older than the field says nothing: not found blank.
        blank: r.blank === true,
        // An agent older than the field says nothing: nothing blocked.
        blocked: { ...NOTHING_BLOCKED, ...r.blocked },
        // metadata=1: what the page says about itself; an agent older than the field sends none.
        page_metadata: r.metadata ?? null,
        browser_info: r.browserInfo,
        node_id: r.node.id,
        files: r.files.map((f) => ({ kind: f.kind, shot: f.shot, storage_key: f.key, content_type: f.contentType, size_bytes: f.size })),
      };
    });
    // The whole ending of every record in one statement (it was 9 statements per result, then 5, then 1; each is a
    // round trip and a socket write, most of the api's CPU per capture): `was` locks the records still `processing`
    // (in id order, so two replicas applying overlapping batches cannot deadlock) and keeps the cost each held;
    // `ended` writes the results (an error's cost becomes 0; the record keeps its request's warnings and
    // User-Agent, the result adds its own); `files` their file rows; `runs` queues the app runs waiting for them;
    // the held credits are settled as the ledger says (SETTLE_HELD_CTES). A redelivered result, or one whose
    // record ended otherwise or is gone, finds no row in `was` and changes nothing; `present` tells those apart.
    const answer = await this.db.raw(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb) AS r(id bigint, status text, error text, error_cause text, final_url text,
           final_urls jsonb, response_code integer, links jsonb, trackers jsonb, user_agent text, warnings jsonb, timings jsonb,
           blank boolean, blocked jsonb, page_metadata jsonb, browser_info text, node_id text, files jsonb)),
       was AS (SELECT id, cost FROM screenshots WHERE id IN (SELECT id FROM input) AND status = 'processing' ORDER BY id FOR UPDATE),
       ended AS (
         UPDATE screenshots s SET status = r.status, error = r.error, error_cause = r.error_cause,
           cost = CASE WHEN r.status = 'finished' THEN s.cost ELSE 0 END,
           final_url = r.final_url, final_urls = r.final_urls, response_code = r.response_code, links = r.links, trackers = r.trackers,
           user_agent = COALESCE(NULLIF(s.user_agent, ''), r.user_agent), warnings = s.warnings || r.warnings, timings = r.timings,
           blank = r.blank, blocked = r.blocked, page_metadata = r.page_metadata, browser_info = r.browser_info, node_id = r.node_id,
           finished_at = now()
         FROM was JOIN input r ON r.id = was.id
         WHERE s.id = was.id
         RETURNING s.id, s.company_id, s.status, s.batch_id, s.crawl_id, s.request_id, s.monitor_id, was.cost AS held, r.files),
       files AS (
         INSERT INTO screenshot_files (company_id, screenshot_id, kind, shot, storage_key, content_type, size_bytes)
         SELECT ended.company_id, ended.id, f.kind, f.shot, f.storage_key, f.content_type, f.size_bytes
         FROM ended, jsonb_to_recordset(ended.files) AS f(kind text, shot integer, storage_key text, content_type text, size_bytes bigint)
         RETURNING id),
       runs AS (UPDATE app_runs SET status = 'queued', updated_at = now() WHERE screenshot_id IN (SELECT id FROM ended) AND status = 'pending' RETURNING screenshot_id),
       ${SETTLE_HELD_CTES}
       SELECT r.id, ended.id IS NOT NULL AS applied, EXISTS (SELECT 1 FROM screenshots x WHERE x.id = r.id) AS present,
         ended.company_id, ended.batch_id, ended.crawl_id, ended.request_id, ended.monitor_id,
         (SELECT count(*) FROM runs WHERE runs.screenshot_id = r.id)::integer AS runs_queued
       FROM input r LEFT JOIN ended ON ended.id = r.id`,
      [JSON.stringify(input), SCREENSHOT_DEBIT],
    );
    type Row = {
      id: number | string;
      applied: boolean;
      present: boolean;
      company_id: number | string | null;
      batch_id: number | string | null;
      crawl_id: number | string | null;
      request_id: string | null;
      monitor_id: number | string | null;
      runs_queued: number;
    };
    const byId = new Map((answer.rows as Row[]).map((row) => [Number(row.id), row]));
    const nullableId = (v: number | string | null): number | null => (v === null ? null : Number(v));

    const outcomes = results.map((result) => {
      const row = byId.get(result.id);
      if (!row?.applied) return { result, outcome: row?.present ? ('duplicate' as const) : ('orphan' as const) };
      const ended: EndedByResult = {
        id: result.id,
        companyId: Number(row.company_id),
        status: result.status,
        links: result.links,
        batchId: nullableId(row.batch_id),
        crawlId: nullableId(row.crawl_id),
        monitorId: nullableId(row.monitor_id),
      };
      return { result, outcome: 'applied' as const, ended, runsQueued: Number(row.runs_queued), requestId: String(row.request_id ?? '') };
    });

    // A record deleted, or ended without its result (cancelled with its batch, or this is a redelivery): files no
    // record refers to have nowhere to belong; a redelivery's files are the applied result's own, still referenced, and stay.
    const unused = outcomes.filter((o) => o.outcome !== 'applied').flatMap((o) => o.result.files.map((f) => f.key));
    await deleteUnreferencedObjects(this.db, this.objects, unused).catch((err: unknown) =>
      this.log.warn({ err, ids: outcomes.filter((o) => o.outcome !== 'applied').map((o) => o.result.id) }, 'could not delete the files of an unused result'),
    );
    let runsQueued = 0;
    const endedAs = new Map<EndingStatus, number[]>();
    for (const o of outcomes) {
      if (o.outcome !== 'applied') continue;
      const { result } = o;
      // The one log line of this capture's outcome: a redelivered result changes nothing and logs nothing here.
      const line = { id: result.id, request_id: o.requestId, status: result.status, node: result.node.id, seconds: (result.timings.total ?? 0) / 1000 };
      if (result.status === 'finished') this.log.info(line, 'screenshot finished');
      else this.log.info({ ...line, error: result.error, error_cause: result.errorCause ?? 'capture_failed' }, 'screenshot ended with an error');
      runsQueued += o.runsQueued;
      endedAs.set(result.status, [...(endedAs.get(result.status) ?? []), result.id]);
    }
    this.announce(endedAs, runsQueued);
    return outcomes.map((o) => (o.outcome === 'applied' ? { outcome: o.outcome, ended: o.ended } : { outcome: o.outcome }));
  }

  /**
   * Ends records that will get no result (never queued) as `error` with `reason` and its
   * stable `cause`, at cost 0 (only finished records are charged). Only records still `processing` end; `within` runs in the same
   * transaction with the ids that did (the owner's bookkeeping: a crawl counts its page). Returns those ids.
   */
  async endWithError(ids: number[], reason: string, cause: ErrorCause, within?: (trx: Knex.Transaction, ended: number[]) => Promise<void>): Promise<number[]> {
    return this.endWithout(ids, reason, 'error', cause, within);
  }

  /** Like endWithError, for records their owner cancelled (a batch or crawl): counted as `cancelled`. */
  async cancel(ids: number[], reason: string, within?: (trx: Knex.Transaction, ended: number[]) => Promise<void>): Promise<number[]> {
    return this.endWithout(ids, reason, 'cancelled', 'cancelled', within);
  }

  private async endWithout(ids: number[], reason: string, status: 'error' | 'cancelled', cause: ErrorCause, within?: (trx: Knex.Transaction, ended: number[]) => Promise<void>): Promise<number[]> {
    if (ids.length === 0) return [];
    const { rows, runsQueued } = await this.db.transaction(async (trx) => {
      // `was` locks the records still processing and keeps the cost each held (it becomes 0: nothing is charged).
      const endedRows: { id: number; request_id: string; company_id: number; held: number }[] = await trx('screenshots as s')
        .update({ status: 'error', error: reason, error_cause: cause, cost: 0, finished_at: trx.fn.now() })
        .updateFrom(trx('screenshots').whereIn('id', ids).where({ status: 'processing' }).orderBy('id').forUpdate().select('id', 'cost').as('was'))
        .whereRaw('s.id = was.id')
        .returning(['s.id', 's.request_id', 's.company_id', 'was.cost as held']);
      const endedIds = endedRows.map((r) => Number(r.id));
      if (endedIds.length === 0) return { rows: endedRows, runsQueued: 0 };
      await releaseCredits(trx, heldBy(endedRows));
      const queued = await this.queueAppRuns(trx, endedIds);
      await within?.(trx, endedIds);
      return { rows: endedRows, runsQueued: queued };
    });
    const ended = rows.map((r) => Number(r.id));
    // The one log line of each such record's outcome (only the records this call ended).
    for (const r of rows) this.log.info({ id: Number(r.id), request_id: r.request_id, status, error: reason }, status === 'cancelled' ? 'screenshot cancelled' : 'screenshot ended with an error');
    this.announce(new Map([[status, ended]]), runsQueued);
    return ended;
  }

  /**
   * Keeps a monitor run's comparison on its (finished) record: `change_ratio`, `text_changes` and the diff
   * image as a file of kind `diff`. Written once: a second comparison of the same record changes nothing.
   */
  async recordComparison(id: number, comparison: Comparison): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = await trx('screenshots').where({ id }).forUpdate().first('company_id', 'change_ratio');
      if (!row || row.change_ratio !== null) return;
      await trx('screenshots')
        .where({ id })
        .update({
          change_ratio: comparison.changeRatio,
          text_changes: comparison.textChanges === null ? null : JSON.stringify(comparison.textChanges),
        });
      if (comparison.diff) {
        await trx('screenshot_files')
          .insert({
            company_id: row.company_id,
            screenshot_id: id,
            kind: 'diff',
            shot: 1,
            storage_key: comparison.diff.key,
            content_type: comparison.diff.contentType,
            size_bytes: comparison.diff.size,
          })
          .onConflict(['screenshot_id', 'kind', 'shot'])
          .ignore();
      }
    });
  }

  /**
   * Runs apps for an ended record after the fact (a monitor's apps, when its run found a change): one
   * queued run per configuration it does not run yet; the runner is woken.
   */
  async addAppRuns(id: number, appConfigIds: number[]): Promise<number> {
    if (appConfigIds.length === 0) return 0;
    const added = await this.db.transaction(async (trx) => {
      const row = await trx('screenshots').where({ id }).first('company_id', 'status');
      if (!row || row.status === 'processing') return 0;
      const existing = (await trx('app_runs').where({ screenshot_id: id }).pluck('app_config_id')).map(Number);
      const fresh = [...new Set(appConfigIds)].filter((a) => !existing.includes(a));
      if (fresh.length === 0) return 0;
      await trx('app_runs').insert(fresh.map((a) => ({ company_id: row.company_id, screenshot_id: id, app_config_id: a, status: 'queued', filename: '' })));
      return fresh.length;
    });
    if (added > 0) for (const listener of this.runsQueuedListeners) listener();
    return added;
  }

  /**
   * Deletes part of a record: `image` its stored files, `url` the addresses it holds (in the stored
   * CaptureSpec too), `metadata` what was sent with the request, `all` the record itself with its files.
   */
  async scrub(companyId: number, id: number, scope: DeleteScope): Promise<void> {
    switch (scope) {
      case 'image':
        await this.deleteFiles(companyId, id);
        return;
      case 'url': {
        const spec = await this.store.captureSpec(companyId, id);
        // The page's metadata holds its addresses too (canonical, og:url, icons): it goes with them.
        await this.update(companyId, id, { url: '', final_url: '', final_urls: [], links: [], page_metadata: null, capture_spec: { ...spec, url: '', source: null } });
        return;
      }
      case 'metadata': {
        const spec = await this.store.captureSpec(companyId, id);
        await this.update(companyId, id, {
          cookie: '',
          header: '',
          post_data: '',
          script: '',
          script_inline: '',
          steps: [],
          trackers: [],
          capture_spec: { ...spec, cookies: [], headers: [], postData: null, scripts: [], scriptInline: null, css: null, steps: [], trackers: [] },
        });
        return;
      }
      case 'all':
        await this.deleteFiles(companyId, id);
        await this.db.transaction(async (trx) => {
          // A record deleted while processing ends without a result: what it held is released (nothing is charged).
          const deleted: { company_id: number; held: number }[] = await trx('screenshots')
            .where({ company_id: companyId, id })
            .delete()
            .returning(['company_id', trx.raw("CASE WHEN status = 'processing' THEN cost ELSE 0 END AS held")]);
          await releaseCredits(trx, heldBy(deleted));
        });
    }
  }

  /** The app runs that waited for these records to end: queued now. Returns how many. */
  private async queueAppRuns(trx: Knex.Transaction, ids: number[]): Promise<number> {
    return trx('app_runs').whereIn('screenshot_id', ids).where({ status: 'pending' }).update({ status: 'queued', updated_at: trx.fn.now() });
  }

  /** After the commit of an ending: the runner starts the queued runs, and the waiters answer. */
  private announce(endedAs: Map<EndingStatus, number[]>, runsQueued: number): void {
    for (const [status, ids] of endedAs) if (ids.length > 0) for (const listener of this.endedListeners) listener(status, ids.length);
    // Most screenshots have no apps, and a wake costs the runner four queries: only when there is work.
    if (runsQueued > 0) for (const listener of this.runsQueuedListeners) listener();
    // One message for every record these endings ended, whatever their statuses.
    this.events.ended([...endedAs.values()].flat());
  }

  private async update(companyId: number, id: number, values: Record<string, unknown>): Promise<void> {
    await this.db('screenshots').where({ company_id: companyId, id }).update(toDbValues(values));
  }

  /** Removes a record's file rows, then the stored objects no other record (a cache hit) still uses. */
  private async deleteFiles(companyId: number, id: number): Promise<void> {
    const keys: string[] = await this.db('screenshot_files').where({ company_id: companyId, screenshot_id: id }).pluck('storage_key');
    await this.db('screenshot_files').where({ company_id: companyId, screenshot_id: id }).delete();
    await deleteUnreferencedObjects(this.db, this.objects, keys);
  }
}

/** A draft's column values as a new `processing` record of `caller`. */
function draftValues(caller: RecordCreator, d: ScreenshotDraft, routing: string, owner: RecordOwner): Record<string, unknown> {
  return toDbValues({
    ...d.fields,
    ...owner,
    company_id: caller.companyId,
    api_key_id: caller.apiKeyId,
    request_id: caller.requestId ?? '',
    status: 'processing',
    routing,
    capture_spec: d.spec,
    spec_hash: d.specHash,
  });
}
