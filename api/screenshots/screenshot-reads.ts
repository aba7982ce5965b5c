import type { Knex } from 'knex';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Db } from '../db/connect.js';

/**
 * The screenshots table's read model for the other features: every read of a screenshot record outside this
 * folder is one of these, named by what it answers (the records module, screenshot-records.ts, is the one
 * writer; screenshot-store.ts answers the screenshot routes). A feature that needs another view of the records
 * adds it here, so a change of the table's columns is met in one folder.
 */

// --- accounts, billing, admin: counts -------------------------------------------------------------------

/** An account's screenshots: all of them, those created since `monthStart`, and per status. */
export async function accountScreenshotCounts(db: Db, companyId: number, monthStart: Date): Promise<{ total: number; thisMonth: number; processing: number; finished: number; error: number }> {
  const row = await db('screenshots')
    .where({ company_id: companyId })
    .first(
      db.raw('count(*) as total'),
      db.raw('count(*) filter (where created_at >= ?) as this_month', [monthStart]),
      db.raw("count(*) filter (where status = 'processing') as processing"),
      db.raw("count(*) filter (where status = 'finished') as finished"),
      db.raw("count(*) filter (where status = 'error') as error"),
    );
  const n = (v: unknown): number => Number(v ?? 0);
  return { total: n(row?.total), thisMonth: n(row?.this_month), processing: n(row?.processing), finished: n(row?.finished), error: n(row?.error) };
}

/** An account's latest screenshots, newest first, as the dashboard overview lists them. */
export async function recentScreenshots(
  db: Db,
  companyId: number,
  limit: number,
): Promise<{ id: unknown; url: unknown; status: unknown; cost: unknown; error: unknown; created_at: unknown; finished_at: unknown }[]> {
  return db('screenshots').where({ company_id: companyId }).orderBy('id', 'desc').limit(limit).select('id', 'url', 'status', 'cost', 'error', 'created_at', 'finished_at');
}

/** The screenshots an account created since `since` that count against a plan (failed ones cost nothing). */
export async function chargedScreenshotsSince(db: Db, companyId: number, since: Date | string): Promise<number> {
  const [used] = await db('screenshots').where({ company_id: companyId }).where('created_at', '>=', since).whereNot({ status: 'error' }).count('* as n');
  return Number(used?.n ?? 0);
}

/**
 * The installation's screenshots for the admin overview: all of them, the accounts active since
 * `activeSince`, those of the last day (and failed), and the `topUsers` users with the most since
 * `activeSince` (a screenshot counts for the user of its API key, else for its account's first user).
 */
export async function installationScreenshotStats(
  db: Db,
  { activeSince, daySince, topUsers }: { activeSince: Date; daySince: Date; topUsers: number },
): Promise<{ total: number; activeClients: number; lastDay: number; failedLastDay: number; topUsers: { user_id: number; email: string; company_name: string; screenshots: number }[] }> {
  const [total, active, day, top] = await Promise.all([
    db('screenshots')
      .count('* as n')
      .first()
      .then((r) => Number(r?.n ?? 0)),
    db('screenshots')
      .where('created_at', '>=', activeSince)
      .countDistinct('company_id as n')
      .first()
      .then((r) => Number(r?.n ?? 0)),
    db('screenshots').where('created_at', '>=', daySince).first(db.raw('count(*) as total'), db.raw("count(*) filter (where status = 'error') as failed")),
    db.raw(
      `
      with owners as (select company_id, min(id) as user_id from users group by company_id)
      select u.id as user_id, u.email, c.name as company_name, count(*) as screenshots
      from screenshots s
      left join api_keys k on k.id = s.api_key_id
      left join owners o on o.company_id = s.company_id
      join users u on u.id = coalesce(k.user_id, o.user_id)
      join companies c on c.id = s.company_id
      where s.created_at >= ?
      group by u.id, u.email, c.name
      order by screenshots desc, u.id
      limit ?`,
      [activeSince, topUsers],
    ),
  ]);
  return {
    total,
    activeClients: active,
    lastDay: Number(day?.total ?? 0),
    failedLastDay: Number(day?.failed ?? 0),
    topUsers: (top.rows as Record<string, unknown>[]).map((r) => ({ user_id: Number(r.user_id), email: String(r.email), company_name: String(r.company_name), screenshots: Number(r.screenshots) })),
  };
}

// --- farm -------------------------------------------------------------------------------------------------

/**
 * Per browser, the captures that ended in the last `minutes` and how many ended in error. A capture is a
 * record a node ended (node_id set): cache hits (routing `cache:…`) and records ended without running are not.
 */
export function capturesPerBrowser(db: Db, minutes: number): Promise<{ browser: string; captures: number; errors: number }[]> {
  return db('screenshots')
    .where('finished_at', '>=', db.raw(`now() - make_interval(mins => ?)`, [minutes]))
    .whereNot('node_id', '')
    .whereNot('routing', 'like', 'cache:%')
    .groupBy('browser')
    .select('browser', db.raw('count(*)::int as captures'), db.raw(`(count(*) filter (where status = 'error'))::int as errors`)) as Promise<{ browser: string; captures: number; errors: number }[]>;
}

/** A record still `processing`, with what it takes to queue its job again. */
export interface ProcessingRecord {
  id: number;
  company_id: number;
  request_options: Record<string, unknown>;
  capture_spec: CaptureSpec;
  routing: string;
  request_id: string;
  batch_id: number | null;
  crawl_id: number | null;
}

/** Every record still `processing`, in id order (the restart requeue). */
export function processingRecords(db: Db): Promise<ProcessingRecord[]> {
  return db('screenshots').where({ status: 'processing' }).orderBy('id').select('id', 'company_id', 'request_options', 'capture_spec', 'routing', 'request_id', 'batch_id', 'crawl_id');
}

// --- retrieval ----------------------------------------------------------------------------------------------

/** The account that owns a screenshot; 0 when there is no such record. */
export async function ownerOfScreenshot(db: Db, screenshotId: number): Promise<number> {
  return Number((await db('screenshots').where({ id: screenshotId }).first('company_id'))?.company_id ?? 0);
}

/**
 * An account's screenshot with its stored file of one kind (and shot) when there is one: one query, as every
 * image download runs it. Undefined when the account has no such record; file fields null when no such file.
 */
export async function screenshotWithFile(
  db: Db,
  companyId: number,
  id: number,
  kind: string,
  shot: number | null,
): Promise<{ status: string; storage_key: string | null; content_type: string | null; size_bytes: number | null; kind: string | null; shot: number | null } | undefined> {
  return db('screenshots as s')
    .leftJoin('screenshot_files as f', (on) => {
      on.on('f.screenshot_id', 's.id').andOn('f.company_id', 's.company_id').andOnVal('f.kind', kind);
      if (shot !== null) on.andOnVal('f.shot', shot);
    })
    .where({ 's.company_id': companyId, 's.id': id })
    .orderBy('f.shot')
    .first('s.status', 'f.storage_key', 'f.content_type', 'f.size_bytes', 'f.kind', 'f.shot');
}

// --- crawls ------------------------------------------------------------------------------------------------

/** A screenshot's status and the links its capture found; undefined when there is no such record. */
export async function screenshotOutcome(db: Db, screenshotId: number): Promise<{ status: string; links: string[] } | undefined> {
  return db('screenshots').where({ id: screenshotId }).first('status', 'links');
}

/** A crawl's queued pages whose screenshot has ended, in page order: the screenshot, its status and links. */
export function endedCrawlPages(db: Db, crawlId: number): Promise<{ id: number; status: 'finished' | 'error'; links: string[] }[]> {
  return db('crawl_urls as u')
    .join('screenshots as s', 's.id', 'u.screenshot_id')
    .where({ 'u.crawl_id': crawlId, 'u.status': 'queued' })
    .whereNot('s.status', 'processing')
    .orderBy('u.id')
    .select('s.id', 's.status', 's.links');
}

// --- batches -----------------------------------------------------------------------------------------------

/** A batch's screenshot ids, in id order. */
export async function batchScreenshotIds(db: Db, companyId: number, batchId: number): Promise<number[]> {
  return (await db('screenshots').where({ company_id: companyId, batch_id: batchId }).orderBy('id').pluck('id')).map(Number);
}

/** The ids of a batch's screenshots not ended yet. */
export async function processingOfBatch(db: Db, companyId: number, batchId: number): Promise<number[]> {
  return (await db('screenshots').where({ company_id: companyId, batch_id: batchId, status: 'processing' }).pluck('id')).map(Number);
}

/** The latest attempt of a batch's records (1 before any retry). */
export async function lastBatchAttempt(db: Db, batchId: number): Promise<number> {
  return Number((await db('screenshots').where({ batch_id: batchId }).max('attempt as a').first())?.a ?? 1);
}

/** A batch's records counted per attempt and status, by attempt. */
export function batchAttemptCounts(db: Db, companyId: number, batchId: number): Promise<{ attempt: number; status: string; n: string | number }[]> {
  return db('screenshots').where({ company_id: companyId, batch_id: batchId }).groupBy('attempt', 'status').orderBy('attempt').select('attempt', 'status').count('id as n') as Promise<
    { attempt: number; status: string; n: string | number }[]
  >;
}

/** A batch's current records (`s`): the latest attempt for each of its URLs (a record no retry stands in for), to filter and select from. */
export function currentBatchRecords(db: Db | Knex.Transaction, batchId: number): Knex.QueryBuilder {
  return db('screenshots as s')
    .where({ 's.batch_id': batchId })
    .whereNotExists(db('screenshots as t').whereRaw('t.retry_of = coalesce(s.retry_of, s.id)').andWhereRaw('t.attempt > s.attempt').select(db.raw('1')));
}

/** One stored file of a batch's screenshot, with the record fields a ZIP entry's name is made of. */
export interface BatchFileRow {
  screenshot_id: number | string;
  kind: 'image' | 'html' | 'markdown' | 'pdf' | 'video';
  shot: number | null;
  storage_key: string;
  content_type: string;
  size_bytes: number | string;
  url: string;
  browser: string;
  country: string;
  tag: string[];
  created_at: Date | string;
  retry_of: number | string | null;
  /** the record's metadata (metadata=1), which the ZIP holds as a .json beside the files; null otherwise */
  metadata: Record<string, unknown> | string | null;
}

/**
 * The files of a batch's finished screenshots with an id above `after`, at most `page` screenshots' worth, in
 * screenshot, kind and shot order, with what the ZIP's file names are made of.
 */
export function batchFilesPage(db: Db, batchId: number, after: number, page: number): Promise<BatchFileRow[]> {
  return db('screenshot_files as f')
    .join('screenshots as s', 's.id', 'f.screenshot_id')
    .where({ 's.batch_id': batchId, 's.status': 'finished' })
    .andWhere('f.screenshot_id', '>', after)
    .whereIn('f.screenshot_id', db('screenshots').select('id').where({ batch_id: batchId, status: 'finished' }).andWhere('id', '>', after).orderBy('id').limit(page))
    .orderBy([{ column: 'f.screenshot_id' }, { column: 'f.kind' }, { column: 'f.shot' }])
    .select(
      'f.screenshot_id',
      'f.kind',
      'f.shot',
      'f.storage_key',
      'f.content_type',
      'f.size_bytes',
      's.url',
      's.browser',
      's.country',
      's.tag',
      's.created_at',
      's.retry_of',
      's.page_metadata as metadata',
    );
}

// --- monitors ----------------------------------------------------------------------------------------------

/**
 * Monitor runs to compare (id order, at most `limit`): their screenshot has ended, and they were never claimed
 * or their claim is older than `staleBefore`.
 */
export function monitorRunsToCompare(db: Db, staleBefore: Date, limit: number): Promise<{ id: number; monitor_id: number; screenshot_id: number }[]> {
  return db('monitor_runs as r')
    .join('screenshots as s', 's.id', 'r.screenshot_id')
    .whereNull('r.compared_at')
    .whereNot('s.status', 'processing')
    .andWhere((q) => void q.where({ 'r.compared': false }).orWhere('r.compare_claimed_at', '<', staleBefore))
    .orderBy('r.id')
    .limit(limit)
    .select('r.id', 'r.monitor_id', 'r.screenshot_id');
}

/** A monitor run's screenshot as the comparison reads it: owner, status and stored spec. */
export async function screenshotToCompare(db: Db, screenshotId: number): Promise<{ id: number; company_id: number; status: string; capture_spec: CaptureSpec } | undefined> {
  return db('screenshots').where({ id: screenshotId }).first('id', 'company_id', 'status', 'capture_spec');
}

/** The screenshot of a monitor's latest run before `runId` that finished; undefined for the first. */
export async function previousFinishedRunShot(db: Db, monitorId: number, runId: number): Promise<number | undefined> {
  const previous = await db('monitor_runs as r')
    .join('screenshots as s', 's.id', 'r.screenshot_id')
    .where({ 'r.monitor_id': monitorId, 's.status': 'finished' })
    .andWhere('r.id', '<', runId)
    .orderBy('r.id', 'desc')
    .first('s.id');
  return previous ? Number(previous.id) : undefined;
}

/** Monitor runs (`r`) with their screenshot's status, error, comparison and whether a diff image is stored, to filter and page. */
export function monitorRunsWithShots(db: Db): Knex.QueryBuilder {
  return db('monitor_runs as r')
    .leftJoin('screenshots as s', 's.id', 'r.screenshot_id')
    .select(
      'r.*',
      's.status as screenshot_status',
      's.error as screenshot_error',
      's.change_ratio',
      's.text_changes',
      db.raw('exists (select 1 from screenshot_files f where f.screenshot_id = r.screenshot_id and f.kind = ?) as has_diff', ['diff']),
    );
}

// --- apps --------------------------------------------------------------------------------------------------

/** The app configurations attached (through runs) to any screenshot matching `where` (a batch's, a crawl's, one screenshot). */
export async function appConfigsOfScreenshots(db: Db, where: { batch_id?: number; crawl_id?: number; id?: number }): Promise<number[]> {
  const ids = await db('app_runs as r')
    .join('screenshots as s', 's.id', 'r.screenshot_id')
    .where(Object.fromEntries(Object.entries(where).map(([k, v]) => [`s.${k}`, v])))
    .distinct('r.app_config_id')
    .pluck('r.app_config_id');
  return ids.map(Number);
}
