import type { Knex } from 'knex';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import { ApiError, notFound } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { isSourceUrl } from '../options/create-targets.js';
import { buildMonitorRequest, buildMonitorRun, type MonitorContext, type MonitorRequest } from './monitor-request.js';
import type { QueryTree } from '../options/query-input.js';
import type { Caller } from '../http/state.js';
import type { ScreenshotService } from '../screenshots/screenshot-service.js';
import type { MonitorRow, MonitorRunRow } from './monitor-record.js';
import { checkMonitorLimits } from './monitor-limits.js';
import { firstRun } from './monitor-schedule.js';
import { createContextOf } from '../options/create-request.js';
import { monitorRunsWithShots } from '../screenshots/screenshot-reads.js';

/** A run whose screenshot was never created (the process stopped in between) is ended after this long. */
const ORPHAN_RUN_MS = 5 * 60 * 1000;

/** jsonb columns of a monitor, passed as JSON text (node-postgres would send a JS array as a Postgres array). */
const toDb = (values: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...values };
  for (const c of ['ignore', 'options', 'app_config_ids']) if (c in out) out[c] = JSON.stringify(out[c]);
  return out;
};

const TARGETS = ['url', 'source_html', 'source_markdown'] as const;

/** The stored monitor as the request it was made from: an update is validated as a whole, changes on top. */
function asInput(m: MonitorRow): QueryTree {
  return {
    ...m.options,
    // A source's url is the record's name for it: the source itself is among the options.
    ...(isSourceUrl(m.url) ? {} : { url: [m.url] }),
    ...(m.name ? { name: [m.name] } : {}),
    ...(m.cron ? { cron: [m.cron] } : { interval: [String(m.interval_seconds)] }),
    threshold: [String(m.threshold)],
    ignore: [JSON.stringify(m.ignore.map((r) => ('selector' in r ? r.selector : r.box)))],
  };
}

/** The field that states a schedule: a refused schedule is named by it. */
const scheduleField = (schedule: { cron: string | null }): 'interval' | 'cron' => (schedule.cron ? 'cron' : 'interval');

/** The application service behind the /monitor operations, and the one place a run starts. */
export class MonitorService {
  constructor(
    private readonly db: Db,
    private readonly screenshots: ScreenshotService,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  private get ctx(): MonitorContext {
    return { ...createContextOf(this.config), minIntervalSeconds: this.config.monitors.minIntervalSeconds };
  }

  async create(caller: Caller, input: QueryTree): Promise<MonitorRow> {
    const request = buildMonitorRequest(input, this.ctx);
    const appConfigIds = await this.screenshots.appConfigIds(caller, request.apps);
    const now = new Date();
    const id = await this.db.transaction(async (trx) => {
      await checkMonitorLimits(trx, caller.companyId, this.config.monitors, { monitorId: null, intervalSeconds: request.intervalSeconds, field: scheduleField(request) });
      const [row] = await trx('monitors')
        .insert(
          toDb({
            company_id: caller.companyId,
            api_key_id: caller.apiKeyId,
            ...this.columns(request, appConfigIds),
            status: 'active',
            next_run_at: firstRun({ interval_seconds: request.intervalSeconds, cron: request.cron }, now),
          }),
        )
        .returning('id');
      return Number(row.id);
    });
    return this.get(caller, id);
  }

  async get(caller: Caller, id: number): Promise<MonitorRow> {
    const row = await this.db('monitors').where({ company_id: caller.companyId, id }).first();
    if (!row) throw notFound('Monitor');
    return row as MonitorRow;
  }

  async list(caller: Caller, limit: number, offset: number): Promise<MonitorRow[]> {
    return this.db('monitors').where({ company_id: caller.companyId }).orderBy('id', 'desc').limit(limit).offset(offset) as Promise<MonitorRow[]>;
  }

  /**
   * Changes a monitor: the given fields replace the stored ones, options included (an option given
   * replaces that option; the others stay), and the whole is validated again. A new schedule starts now.
   */
  async update(caller: Caller, id: number, changes: QueryTree): Promise<MonitorRow> {
    const monitor = await this.get(caller, id);
    const { id: _id, key: _key, ...rest } = changes;
    const input: QueryTree = { ...asInput(monitor), ...rest };
    // A target given replaces the stored one: a url a source, a source a url or the other source.
    for (const target of TARGETS) if (rest[target] !== undefined) for (const other of TARGETS) if (other !== target && rest[other] === undefined) delete input[other];
    if (rest.url !== undefined && rest.base_url === undefined) delete input.base_url;
    // A cron given replaces the interval and the other way round.
    if (rest.cron !== undefined && rest.interval === undefined) delete input.interval;
    if (rest.interval !== undefined && rest.cron === undefined) delete input.cron;
    const request = buildMonitorRequest(input, this.ctx);
    const appConfigIds = rest.apps !== undefined ? await this.screenshots.appConfigIds(caller, request.apps) : monitor.app_config_ids.map(Number);
    const schedule = { interval_seconds: request.intervalSeconds, cron: request.cron };
    const rescheduled = schedule.interval_seconds !== Number(monitor.interval_seconds) || schedule.cron !== monitor.cron;
    await this.db.transaction(async (trx) => {
      // A paused monitor asks for no runs until it is resumed (resume checks then).
      if (monitor.status === 'active') {
        await checkMonitorLimits(trx, caller.companyId, this.config.monitors, { monitorId: id, intervalSeconds: request.intervalSeconds, field: scheduleField(request) });
      }
      await trx('monitors')
        .where({ id })
        .update(
          toDb({
            ...this.columns(request, appConfigIds),
            updated_at: new Date(),
            ...(rescheduled ? { next_run_at: firstRun(schedule, new Date()) } : {}),
          }),
        );
    });
    return this.get(caller, id);
  }

  async pause(caller: Caller, id: number): Promise<MonitorRow> {
    await this.get(caller, id);
    await this.db('monitors').where({ id }).update({ status: 'paused', updated_at: new Date() });
    return this.get(caller, id);
  }

  /** Starts the schedule again from now: the periods of the pause are not caught up. */
  async resume(caller: Caller, id: number): Promise<MonitorRow> {
    const monitor = await this.get(caller, id);
    if (monitor.status !== 'paused') return monitor;
    await this.db.transaction(async (trx) => {
      await checkMonitorLimits(trx, caller.companyId, this.config.monitors, { monitorId: id, intervalSeconds: Number(monitor.interval_seconds), field: scheduleField(monitor) });
      await trx('monitors')
        .where({ id, status: 'paused' })
        .update({ status: 'active', next_run_at: firstRun(monitor, new Date()), updated_at: new Date() });
    });
    return this.get(caller, id);
  }

  /** Deletes the monitor and its runs; the screenshots it took stay (records of the account, charged). */
  async delete(caller: Caller, id: number): Promise<void> {
    await this.get(caller, id);
    await this.db('monitors').where({ company_id: caller.companyId, id }).delete();
  }

  /** One run now, outside the schedule (which is left as it is). */
  async runNow(caller: Caller, id: number): Promise<MonitorRunRow> {
    const monitor = await this.get(caller, id);
    const [run] = await this.db('monitor_runs').insert({ monitor_id: id, company_id: caller.companyId, trigger: 'manual', scheduled_for: new Date() }).returning('id');
    await this.startRun(monitor, Number(run.id));
    return this.run(caller, Number(run.id));
  }

  async runs(caller: Caller, id: number, limit: number, offset: number): Promise<MonitorRunRow[]> {
    await this.get(caller, id);
    return this.runQuery().where({ 'r.monitor_id': id, 'r.company_id': caller.companyId }).orderBy('r.id', 'desc').limit(limit).offset(offset) as Promise<MonitorRunRow[]>;
  }

  async run(caller: Caller, runId: number): Promise<MonitorRunRow> {
    const row = await this.runQuery().where({ 'r.id': runId, 'r.company_id': caller.companyId }).first();
    if (!row) throw notFound('Monitor run');
    return row as MonitorRunRow;
  }

  /**
   * Creates a claimed run's screenshot through the normal create path (balance check, cost, queue),
   * as the key that created the monitor. A run that cannot start (no credits left, the queue refuses)
   * keeps the reason; the schedule goes on.
   */
  async startRun(monitor: MonitorRow, runId: number): Promise<void> {
    const caller: Caller = {
      companyId: Number(monitor.company_id),
      apiKeyId: monitor.api_key_id === null ? null : Number(monitor.api_key_id),
      userId: null,
      credential: `monitor:${monitor.id}`,
      roles: [],
    };
    try {
      const draft = buildMonitorRun(monitor, this.ctx);
      const [shot] = await this.screenshots.createDrafts(caller, [draft], { prepare: async () => ({ monitor_id: Number(monitor.id) }) });
      if (!shot) throw new Error("the run's screenshot was not created");
      await this.db('monitor_runs').where({ id: runId }).update({ screenshot_id: shot.id });
    } catch (err) {
      const reason = err instanceof ApiError && err.expose ? err.message : 'The run could not start';
      if (!(err instanceof ApiError)) this.log.error({ err, monitorId: monitor.id, runId }, 'a monitor run could not start');
      await this.db('monitor_runs').where({ id: runId }).update({ error: reason, compared: true, compared_at: new Date() });
    }
  }

  /** Runs whose screenshot was never created (the process stopped between the claim and the create) end with a reason. */
  async endOrphanRuns(now = new Date()): Promise<number> {
    return this.db('monitor_runs')
      .whereNull('screenshot_id')
      .where({ error: '' })
      .where('created_at', '<', new Date(now.getTime() - ORPHAN_RUN_MS))
      .update({ error: "The service stopped before the run's screenshot was created", compared: true, compared_at: now });
  }

  private runQuery(): Knex.QueryBuilder {
    return monitorRunsWithShots(this.db);
  }

  private columns(request: MonitorRequest, appConfigIds: number[]): Record<string, unknown> {
    return {
      name: request.name,
      url: request.url,
      interval_seconds: request.intervalSeconds,
      cron: request.cron,
      threshold: request.threshold,
      ignore: request.ignore,
      options: request.options,
      app_config_ids: appConfigIds,
    };
  }
}
