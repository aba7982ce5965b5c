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

/** An AppStatus field and the column of app_runs (r) or app_configs (c) it is read from. */
const APP_STATUS_COLUMNS: [keyof AppStatus, string][] = [
  ['id', 'c.id'],
  ['app_id', 'c.app_id'],
  ['type', 'c.type'],
  ['name', 'c.name'],
  ['status', 'r.status'],
  ['filename', 'r.filename'],
  ['error', 'r.error'],
  ['output_url', 'r.output_url'],
  ['output_data', 'r.output_data'],
  ['updated_at', 'r.updated_at'],
];

/** An app run as read (a row of withApps, or an element of a record's runs as JSON) in the answer's shape. */
const toAppStatus = (run: Record<string, unknown>): AppStatus => ({ ...run, id: Number(run.id), updated_at: new Date(run.updated_at as string).toISOString() }) as AppStatus;

/**
 * A record's app runs (oldest first) and the kinds of files it has, as JSON text in columns of the record's own
 * row: one statement answers a record instead of three (issue 30: info?wait took four of the eight statements a
 * capture cost the control plane; docs/performance.md has what that saved).
 */
const APP_RUNS_JSON = `coalesce((select json_agg(json_build_object(${APP_STATUS_COLUMNS.map(([field, column]) => `'${field}', ${column}`).join(', ')}) order by r.id)
  from app_runs r join app_configs c on c.id = r.app_config_id where r.screenshot_id = screenshots.id)::text, '[]') as app_runs_json`;
const OUTPUT_KINDS_JSON = `coalesce((select json_agg(distinct f.kind) from screenshot_files f
  where f.company_id = screenshots.company_id and f.screenshot_id = screenshots.id)::text, '[]') as output_kinds_json`;

/** A record as info answers it: the row (with its app runs) and the kinds of files it has (html, markdown, pdf, video …). */
export interface RecordWithOutputKinds {
  row: ScreenshotRow;
  kinds: Set<string>;
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
      .select('r.screenshot_id', ...APP_STATUS_COLUMNS.map(([field, column]) => `${column} as ${field}`));
    const byShot = new Map<number, AppStatus[]>();
    for (const { screenshot_id: shotId, ...run } of runs as Record<string, unknown>[]) {
      const list = byShot.get(Number(shotId)) ?? [];
      list.push(toAppStatus(run));
      byShot.set(Number(shotId), list);
    }
    return rows.map((r) => ({ ...r, apps: byShot.get(r.id) ?? [] }));
  }

  /** One record with its app runs, in one statement. */
  async get(companyId: number, id: number): Promise<ScreenshotRow | null> {
    return (await this.answer(companyId, id, false))?.row ?? null;
  }

  /** One record with its app runs and the kinds of files it has (info's answer), in one statement. */
  async getWithOutputKinds(companyId: number, id: number): Promise<RecordWithOutputKinds | null> {
    return this.answer(companyId, id, true);
  }

  private async answer(companyId: number, id: number, withKinds: boolean): Promise<RecordWithOutputKinds | null> {
    const found = (await this.db('screenshots')
      .where({ company_id: companyId, id })
      .first([...RECORD_COLUMNS, this.db.raw(APP_RUNS_JSON), ...(withKinds ? [this.db.raw(OUTPUT_KINDS_JSON)] : [])])) as Record<string, unknown> | undefined;
    if (!found) return null;
    const { app_runs_json: runs, output_kinds_json: kinds, ...row } = found;
    return {
      row: { ...normaliseRow(row), apps: (JSON.parse(runs as string) as Record<string, unknown>[]).map(toAppStatus) },
      kinds: new Set(kinds === undefined ? [] : (JSON.parse(kinds as string) as string[])),
    };
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
}
