import type { Knex } from 'knex';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Db } from '../../core/db/connect.js';
import type { ScreenshotDraft } from '../../core/request/create-request.js';
import type { AppStatus, ScreenshotRow } from '../../core/screenshot-record.js';

/** jsonb columns: passed as JSON text, because node-postgres would send a JS array as a Postgres array. */
const JSON_COLUMNS = ['final_urls', 'tag', 'steps', 'trackers', 'links', 'warnings', 'timings', 'capture_spec'] as const;

const toDbValues = (values: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...values };
  for (const c of JSON_COLUMNS) if (c in out) out[c] = JSON.stringify(out[c]);
  return out;
};

/** Columns a record answer needs (everything but the stored CaptureSpec). */
const RECORD_COLUMNS = [
  'id', 'company_id', 'batch_id', 'crawl_id', 'status', 'error', 'url', 'final_url', 'final_urls', 'response_code', 'cost',
  'country', 'region', 'language', 'timezone', 'geo_enable', 'geo_latitude', 'geo_longitude', 'size', 'cache', 'delay',
  'screen_width', 'screen_height', 'max_height', 'priority', 'referer', 'post_data', 'cookie', 'script', 'script_inline', 'header',
  'user_agent', 'html', 'pdf', 'video', 'pdf_background', 'pdf_one_page', 'pdf_landscape', 'pdf_format', 'pdf_margin',
  'pdf_margin_top', 'pdf_margin_bottom', 'pdf_margin_left', 'pdf_margin_right', 'video_format', 'video_quality', 'video_speed',
  'video_duration', 'video_fps', 'video_colors', 'video_scale', 'max_wait', 'hide_popups', 'hide_ads', 'dark', 'strict_ssl',
  'shots', 'shot_interval', 'target', 'device_name', 'device_scale', 'device_mobile', 'device_touch', 'device_landscape',
  'browser', 'tag', 'steps', 'trackers', 'links', 'warnings', 'timings', 'browser_info', 'routing', 'node_id', 'spec_hash', 'created_at', 'finished_at',
];

/** Rows per INSERT statement: 200 rows × ~75 columns stays far below Postgres' 65,535 parameters. */
const INSERT_CHUNK = 200;

const normaliseRow = (row: Record<string, unknown>): ScreenshotRow => ({ ...row, id: Number(row.id), company_id: Number(row.company_id), apps: [] }) as unknown as ScreenshotRow;

export interface ListFilter { status?: string; country?: string; tag?: string[]; urlContains?: string; crawlId?: number; limit: number; offset: number }

/** Reads and writes screenshot rows. Every query is scoped by company. */
export class ScreenshotStore {
  constructor(private readonly db: Db) {}

  /** Inserts the drafts as `processing` records in one transaction-bound statement; returns rows in draft order. */
  async insert(
    trx: Knex.Transaction, companyId: number, apiKeyId: number | null, drafts: ScreenshotDraft[],
    opts: { appConfigIds?: number[]; batch_id?: number; crawl_id?: number; routings?: string[]; runFilenames?: string[] } = {},
  ): Promise<ScreenshotRow[]> {
    if (drafts.length === 0) return [];
    const { appConfigIds = [], routings = [], runFilenames = [], ...owner } = opts;
    const rows = drafts.map((d, i) => toDbValues({
      ...d.fields, ...owner, company_id: companyId, api_key_id: apiKeyId, status: 'processing', routing: routings[i] ?? '', capture_spec: d.spec, spec_hash: d.specHash,
    }));
    const inserted: ScreenshotRow[] = [];
    // Chunks bound the statement size (a batch inserts up to thousands of rows); ids ascend in insert order.
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = await trx('screenshots').insert(rows.slice(i, i + INSERT_CHUNK)).returning(RECORD_COLUMNS) as Record<string, unknown>[];
      inserted.push(...chunk.map(normaliseRow).sort((a, b) => a.id - b.id));
    }
    // Each requested app gets a pending run per screenshot: it runs once the screenshot finishes.
    const runs = inserted.flatMap((r, i) => appConfigIds.map((appConfigId) => ({ company_id: companyId, screenshot_id: r.id, app_config_id: appConfigId, status: 'pending', filename: runFilenames[i] ?? '' })));
    if (runs.length > 0) await trx('app_runs').insert(runs);
    return this.withApps(inserted, trx);
  }

  /** Fills each row's `apps` with its AppStatus entries (one query for all rows). */
  private async withApps(rows: ScreenshotRow[], db: Knex = this.db): Promise<ScreenshotRow[]> {
    if (rows.length === 0) return rows;
    const runs = await db('app_runs as r').join('app_configs as c', 'c.id', 'r.app_config_id')
      .whereIn('r.screenshot_id', rows.map((r) => r.id))
      .orderBy('r.id')
      .select('r.screenshot_id', 'c.id', 'c.app_id', 'c.type', 'c.name', 'r.status', 'r.filename', 'r.error', 'r.output_url', 'r.output_data', 'r.updated_at');
    const byShot = new Map<number, AppStatus[]>();
    for (const run of runs as (AppStatus & { screenshot_id: number; updated_at: Date | string })[]) {
      const { screenshot_id: shotId, ...status } = run;
      const list = byShot.get(Number(shotId)) ?? [];
      list.push({ ...status, id: Number(status.id), updated_at: new Date(run.updated_at).toISOString() });
      byShot.set(Number(shotId), list);
    }
    return rows.map((r) => ({ ...r, apps: byShot.get(r.id) ?? [] }));
  }

  async get(companyId: number, id: number): Promise<ScreenshotRow | null> {
    const row = await this.db('screenshots').where({ company_id: companyId, id }).first(RECORD_COLUMNS);
    return row ? ((await this.withApps([normaliseRow(row)]))[0] as ScreenshotRow) : null;
  }

  /** Only the status of a record (null when the account has no such record): the cheap look before a wait. */
  async status(companyId: number, id: number): Promise<string | null> {
    const row = await this.db('screenshots').where({ company_id: companyId, id }).first('status');
    return row ? String(row.status) : null;
  }

  /** The CaptureSpec to send to the farm, with the record id filled in. */
  async captureSpec(companyId: number, id: number): Promise<CaptureSpec | null> {
    const row = await this.db('screenshots').where({ company_id: companyId, id }).first('capture_spec');
    return row ? { ...(row.capture_spec as CaptureSpec), id } : null;
  }

  async list(companyId: number, f: ListFilter): Promise<ScreenshotRow[]> {
    const q = this.db('screenshots').where({ company_id: companyId }).select(RECORD_COLUMNS).orderBy('id', 'desc').limit(f.limit).offset(f.offset);
    if (f.status) q.andWhere({ status: f.status });
    if (f.country) q.andWhere({ country: f.country });
    if (f.crawlId !== undefined) q.andWhere({ crawl_id: f.crawlId });
    if (f.tag && f.tag.length > 0) q.andWhereRaw('tag @> ?::jsonb', [JSON.stringify(f.tag)]);
    // ILIKE with the wildcard characters escaped: the text is matched literally.
    if (f.urlContains) q.andWhereRaw("url ILIKE ? ESCAPE '\\'", [`%${f.urlContains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
    return this.withApps((await q).map(normaliseRow));
  }

  /** The newest finished capture of this account with the same spec, younger than `maxAgeSeconds`. */
  async findReusable(companyId: number, specHash: string, maxAgeSeconds: number): Promise<number | null> {
    const row = await this.db('screenshots')
      .where({ company_id: companyId, spec_hash: specHash, status: 'finished' })
      .andWhere('finished_at', '>=', new Date(Date.now() - maxAgeSeconds * 1000))
      .orderBy('finished_at', 'desc').first('id');
    return row ? Number(row.id) : null;
  }

  /**
   * A new record answered from an earlier capture: finished at once, at cost 0, with the earlier
   * record's results and the same stored files (the file rows are copied, the objects shared).
   */
  async insertCacheHit(
    trx: Knex.Transaction, caller: { companyId: number; apiKeyId: number | null }, draft: ScreenshotDraft, sourceId: number, appConfigIds: number[],
    owner: { batch_id?: number; crawl_id?: number } = {}, runFilename = '',
  ): Promise<ScreenshotRow> {
    const source = await trx('screenshots').where({ company_id: caller.companyId, id: sourceId })
      .first('final_url', 'final_urls', 'response_code', 'links', 'trackers', 'user_agent', 'warnings', 'browser_info', 'node_id');
    const [row] = await trx('screenshots').insert(toDbValues({
      ...draft.fields, ...owner, ...source, final_urls: source.final_urls, links: source.links, trackers: source.trackers,
      // The request's warnings, then the capture's; a same-worded request warning of the source once.
      warnings: [...new Set([...draft.fields.warnings, ...(source.warnings as string[])])],
      user_agent: draft.fields.user_agent || source.user_agent,
      company_id: caller.companyId, api_key_id: caller.apiKeyId, status: 'finished', cost: 0, routing: `cache:${sourceId}`,
      capture_spec: draft.spec, spec_hash: draft.specHash, finished_at: trx.fn.now(),
    })).returning('id');
    const id = Number(row.id);
    const files = await trx('screenshot_files').where({ screenshot_id: sourceId }).select('kind', 'shot', 'storage_key', 'content_type', 'size_bytes');
    if (files.length > 0) await trx('screenshot_files').insert(files.map((f: Record<string, unknown>) => ({ ...f, company_id: caller.companyId, screenshot_id: id })));
    // Apps still run for a cached record: it is finished, so its runs start queued.
    if (appConfigIds.length > 0) await trx('app_runs').insert(appConfigIds.map((a) => ({ company_id: caller.companyId, screenshot_id: id, app_config_id: a, status: 'queued', filename: runFilename })));
    const inserted = await trx('screenshots').where({ id }).first(RECORD_COLUMNS);
    return (await this.withApps([normaliseRow(inserted)], trx))[0] as ScreenshotRow;
  }

  /** Credits held by records still processing: they are charged when they finish. */
  async reservedCredits(trx: Knex.Transaction, companyId: number): Promise<number> {
    const row = await trx('screenshots').where({ company_id: companyId, status: 'processing' }).sum('cost as reserved').first();
    return Number(row?.reserved ?? 0);
  }

  /** Which output kinds exist for a record (image, html, pdf, video). */
  async outputKinds(companyId: number, id: number): Promise<Set<string>> {
    const rows = await this.db('screenshot_files').where({ company_id: companyId, screenshot_id: id }).distinct('kind');
    return new Set(rows.map((r: { kind: string }) => r.kind));
  }

  async update(companyId: number, id: number, values: Record<string, unknown>): Promise<void> {
    await this.db('screenshots').where({ company_id: companyId, id }).update(toDbValues(values));
  }

  async remove(companyId: number, id: number): Promise<void> {
    await this.db('screenshots').where({ company_id: companyId, id }).delete();
  }
}
