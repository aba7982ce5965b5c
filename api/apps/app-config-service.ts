import type { Db } from '../db/connect.js';
import { notFound, validationError, type FieldErrors } from '../../core/errors.js';
import { checkSettings } from '../../plugins/check-settings.js';
import type { AppRegistry } from '../../plugins/registry.js';
import type { Caller } from '../http/state.js';
import type { AppSettingsCodec } from './app-settings-codec.js';

/** User-defined app ids: what `apps=` names on create. A leading `_` is reserved for the service's own configurations. */
const APP_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
/** Matches the column (app_configs.name is varchar 200). */
const MAX_NAME = 200;

export interface AppConfigRow {
  id: number;
  company_id: number;
  app_id: string;
  type: string;
  name: string;
  settings: Record<string, unknown>;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface AppConfigInput {
  app_id?: unknown;
  type?: unknown;
  name?: unknown;
  settings?: unknown;
}

/** The spec's app configuration: `{id, app_id, type, name, settings (secrets masked), created_at}`. */
export function toAppConfigRecord(row: AppConfigRow, codec: AppSettingsCodec): Record<string, unknown> {
  return {
    id: Number(row.id),
    app_id: row.app_id,
    type: row.type,
    name: row.name,
    settings: codec.mask(row.type, row.settings),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** App configurations of an account: validated by the plugin's schema, secrets sealed before they are stored. */
export class AppConfigService {
  constructor(
    private readonly db: Db,
    private readonly registry: AppRegistry,
    private readonly codec: AppSettingsCodec,
  ) {}

  async list(caller: Caller, limit: number, offset: number): Promise<AppConfigRow[]> {
    return this.db('app_configs').where({ company_id: caller.companyId, hidden: false }).orderBy('id', 'desc').limit(limit).offset(offset);
  }

  async get(caller: Caller, id: number): Promise<AppConfigRow> {
    const row = await this.db('app_configs').where({ company_id: caller.companyId, id, hidden: false }).first();
    if (!row) throw notFound('App configuration');
    return row as AppConfigRow;
  }

  async create(caller: Caller, input: AppConfigInput): Promise<AppConfigRow> {
    const fields: FieldErrors = {};
    const appId = this.appId(input.app_id, fields);
    const type = this.type(input.type, fields);
    const name = this.name(input.name, type, fields);
    const settings = type === null ? null : this.settings(type, input.settings ?? {}, fields);
    if (appId !== null && (await this.db('app_configs').where({ company_id: caller.companyId, app_id: appId }).first('id'))) {
      (fields.app_id ??= []).push(`"${appId}" is already used by another app configuration of this account`);
    }
    if (Object.keys(fields).length > 0 || appId === null || type === null || settings === null) throw validationError(fields);
    const [row] = await this.db('app_configs')
      .insert({ company_id: caller.companyId, app_id: appId, type, name, settings: JSON.stringify(this.codec.seal(type, settings)) })
      .returning('*');
    return row as AppConfigRow;
  }

  /** Fields left out keep their value; the type cannot change (its settings would not fit). */
  async update(caller: Caller, id: number, input: AppConfigInput): Promise<AppConfigRow> {
    const current = await this.get(caller, id);
    const fields: FieldErrors = {};
    if (input.type !== undefined && input.type !== current.type) (fields.type ??= []).push('cannot change; create a new app configuration for another type');
    const appId = input.app_id === undefined ? current.app_id : this.appId(input.app_id, fields);
    const name = input.name === undefined ? current.name : this.name(input.name, current.type, fields);
    let settings: Record<string, unknown> | null = current.settings;
    if (input.settings !== undefined) {
      const incoming = isObject(input.settings) ? this.codec.keepUnchangedSecrets(current.type, input.settings, this.codec.open(current.type, current.settings)) : input.settings;
      settings = this.settings(current.type, incoming, fields);
    }
    if (appId !== null && appId !== current.app_id && (await this.db('app_configs').where({ company_id: caller.companyId, app_id: appId }).first('id'))) {
      (fields.app_id ??= []).push(`"${appId}" is already used by another app configuration of this account`);
    }
    if (Object.keys(fields).length > 0 || settings === null) throw validationError(fields);
    const [row] = await this.db('app_configs')
      .where({ id, company_id: caller.companyId })
      .update({
        app_id: appId,
        name,
        settings: JSON.stringify(this.codec.seal(current.type, settings)),
        updated_at: this.db.fn.now(),
      })
      .returning('*');
    return row as AppConfigRow;
  }

  /** Deleting a configuration deletes its runs and queued deliveries (the tables cascade). */
  async delete(caller: Caller, id: number): Promise<AppConfigRow> {
    const row = await this.get(caller, id);
    await this.db('app_configs').where({ id, company_id: caller.companyId }).delete();
    return row;
  }

  private appId(value: unknown, fields: FieldErrors): string | null {
    if (typeof value === 'string' && APP_ID.test(value)) return value;
    (fields.app_id ??= []).push('is required: 1 to 100 letters, digits, _, . or -, starting with a letter or digit');
    return null;
  }

  private type(value: unknown, fields: FieldErrors): string | null {
    if (typeof value === 'string' && this.registry.get(value)) return value;
    (fields.type ??= []).push(`must be one of the installed app types: ${this.registry.types().join(', ')}`);
    return null;
  }

  private name(value: unknown, type: string | null, fields: FieldErrors): string {
    if (value === undefined || value === null || value === '') return type ? (this.registry.get(type)?.name ?? type) : '';
    if (typeof value === 'string' && value.length <= MAX_NAME && !/\p{Cc}/u.test(value)) return value.trim();
    (fields.name ??= []).push(`must be text of at most ${MAX_NAME} characters without control characters`);
    return '';
  }

  /** The settings as the plugin's schema parses them (defaults filled in), or field errors `settings.<path>`. */
  private settings(type: string, value: unknown, fields: FieldErrors): Record<string, unknown> | null {
    const plugin = this.registry.get(type);
    if (!plugin) return null;
    if (!isObject(value)) {
      (fields.settings ??= []).push('must be a JSON object');
      return null;
    }
    const checked = checkSettings(plugin, value);
    if (checked.ok) return checked.settings;
    for (const problem of checked.problems) (fields[problem.path ? `settings.${problem.path}` : 'settings'] ??= []).push(problem.message);
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
