import type { Knex } from 'knex';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Db } from '../db/connect.js';
import type { AppStatus, ScreenshotRow } from './screenshot-record.js';
import { normaliseRow, RECORD_COLUMNS } from './screenshot-columns.js';

export interface ListFilter {
  status?: string;
  country?: string;
  tag?: string[];
  urlContains?: string;
  crawlId?: number;
  limit: number;
  offset: number;
}

/** Reads screenshot rows (ScreenshotRecords writes them). Every query is scoped by company. */
export class ScreenshotStore {
  constructor(private readonly db: Db) {}

  /** Fills each row's `apps` with its AppStatus entries (one query for all rows). */
  async withApps(rows: ScreenshotRow[], db: Knex = this.db): Promise<ScreenshotRow[]> {
    if (rows.length === 0) return rows;
    const runs = await db('app_runs as r')
      .join('app_configs as c', 'c.id', 'r.app_config_id')
      .whereIn(
        'r.screenshot_id',
        rows.map((r) => r.id),
      )
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

  /** The account's records of these ids (any order). */
  async byIds(companyId: number, ids: number[]): Promise<ScreenshotRow[]> {
    const rows = await this.db('screenshots').where({ company_id: companyId }).whereIn('id', ids).select(RECORD_COLUMNS);
    return this.withApps(rows.map(normaliseRow));
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
      .orderBy('finished_at', 'desc')
      .first('id');
    return row ? Number(row.id) : null;
  }

  /** Which output kinds exist for a record (image, html, pdf, video). */
  async outputKinds(companyId: number, id: number): Promise<Set<string>> {
    const rows = await this.db('screenshot_files').where({ company_id: companyId, screenshot_id: id }).distinct('kind');
    return new Set(rows.map((r: { kind: string }) => r.kind));
  }
}
