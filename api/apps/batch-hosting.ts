import type { Knex } from 'knex';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import type { FieldErrors } from '../../core/errors.js';
import { operatorEgress } from './guarded-agents.js';
import { AppRunError, type AppEgress } from '../../plugins/contract.js';
import type { AppSettingsCodec } from './app-settings-codec.js';

type Acl = 'private' | 'public-read';

/**
 * What a batch's hidden hosting configuration stores: where its files go, never a credential. It is
 * resolved into the s3 app's settings each time a run starts, so the service's keys live only in S3_*
 * and the account's own keys only in its own configuration (rotating either reaches pending runs).
 * - `service`: a bucket of the service's S3 the operator allows this account (SHOTFARM_HOSTING_BUCKETS),
 *   with the service's credentials, through the operator's endpoint (configuration: not guarded);
 * - `app`: the account's own s3 app configuration, its endpoint behind the apps' private-address guard
 *   like every address a user gives. `acl` null keeps that configuration's own.
 */
export type HostingTarget = { hosting: 'service'; bucket: string; acl: Acl } | { hosting: 'app'; app_config_id: number; acl: Acl | null };

/** As stored: the target and the batch's folder (`batch-<id>`, under the configuration's own prefix for `app`). */
type StoredTarget = HostingTarget & { folder: string };

/** The s3 app's settings for one run of a hosting configuration, and the agents its connections take. */
export interface ResolvedHosting {
  settings: Record<string, unknown>;
  egress: AppEgress;
}

/** What the batch asked for: `hosting_bucket` and `hosting_private` as given (undefined: not given). */
export interface HostingRequest {
  bucket?: string;
  private?: boolean;
}

const isTarget = (settings: Record<string, unknown>): boolean => settings.hosting === 'service' || settings.hosting === 'app';

/**
 * Batch `hosting=s3`: each screenshot of the batch is uploaded by the s3 app under `batch-<id>/`, either
 * into a bucket the operator offers for hosting (with the service's storage account) or with one of the
 * account's own s3 app configurations (`hosting_bucket` names its bucket). A bucket the tenant names
 * freely is refused (400): the service's credentials never write where the operator did not say.
 * The configuration is hidden: it shows in the records' AppStatus but the customer cannot list, read
 * or edit it.
 */
export class BatchHosting {
  constructor(
    private readonly db: Db,
    private readonly s3: Config['s3'],
    private readonly hosting: Config['hosting'],
    private readonly codec: AppSettingsCodec,
    /** the apps' private-address guard, for endpoints the account gave */
    private readonly guarded: AppEgress,
  ) {}

  /** The buckets of the service's S3 this account may host in, the default first (none without S3_ENDPOINT). */
  bucketsOf(companyId: number): string[] {
    if (!this.s3) return [];
    return this.hosting.accountBuckets[companyId] ?? this.hosting.buckets;
  }

  /**
   * Where the batch's files go, or the 400's fields. The account's own s3 configuration for the named
   * bucket comes first (its own credentials); then a bucket the operator offers it; no bucket named: the
   * first the operator offers.
   */
  async plan(companyId: number, request: HostingRequest, fields: FieldErrors): Promise<HostingTarget | null> {
    const offered = this.bucketsOf(companyId);
    const own = request.bucket === undefined ? null : await this.ownConfigFor(companyId, request.bucket);
    // The account's own bucket and keys: hosting_private decides when given, else its configuration's acl.
    if (own) return { hosting: 'app', app_config_id: own, acl: request.private === undefined ? null : request.private ? 'private' : 'public-read' };
    const bucket = request.bucket ?? offered[0];
    if (bucket === undefined) {
      (fields.hosting ??= []).push(
        'hosting=s3 needs hosting_bucket naming the bucket of one of your s3 app configurations: this service offers no bucket of its own for hosting (SHOTFARM_HOSTING_BUCKETS)',
      );
      return null;
    }
    if (!offered.includes(bucket)) {
      const allowed = offered.length > 0 ? `the buckets offered to your account are ${offered.join(', ')}` : 'this service offers none of its own';
      (fields.hosting_bucket ??= []).push(`"${bucket}" is neither the bucket of one of your s3 app configurations nor a bucket this service hosts batches in (${allowed})`);
      return null;
    }
    if (request.private === false && !this.hosting.publicRead) {
      (fields.hosting_private ??= []).push('this service uploads hosted files private only (SHOTFARM_HOSTING_PUBLIC_READ): leave hosting_private out or set it to true');
      return null;
    }
    const acl: Acl = this.hosting.publicRead && request.private !== true ? 'public-read' : 'private';
    return { hosting: 'service', bucket, acl };
  }

  async createConfig(trx: Knex.Transaction, companyId: number, batchId: number, target: HostingTarget): Promise<number> {
    const stored: StoredTarget = { ...target, folder: `batch-${batchId}` };
    const [row] = await trx('app_configs')
      .insert({
        company_id: companyId,
        app_id: `_hosting_batch_${batchId}`,
        type: 's3',
        name: `Batch ${batchId} hosting`,
        hidden: true,
        settings: JSON.stringify(stored),
      })
      .returning('id');
    return Number(row.id);
  }

  /**
   * The s3 app's settings and agents for a run of a hidden hosting configuration; null for any other
   * configuration (whose stored settings are used as they are). Throws a final AppRunError when the
   * target is no longer there (the account deleted its configuration, the operator withdrew the bucket).
   */
  async resolve(config: { company_id: number; hidden: boolean; settings: Record<string, unknown> }): Promise<ResolvedHosting | null> {
    if (!config.hidden || !isTarget(config.settings)) return null;
    const target = config.settings as StoredTarget;
    if (target.hosting === 'app') {
      const own = await this.db('app_configs').where({ id: target.app_config_id, company_id: config.company_id, type: 's3', hidden: false }).first('settings');
      if (!own) throw new AppRunError(`the s3 app configuration ${target.app_config_id} this batch uploads with no longer exists`, { retryable: false });
      let settings: Record<string, unknown>;
      try {
        settings = this.codec.open('s3', own.settings as Record<string, unknown>);
      } catch (err) {
        throw new AppRunError((err as Error).message, { retryable: false });
      }
      const prefix = typeof settings.prefix === 'string' && settings.prefix !== '' ? `${settings.prefix.replace(/\/+$/, '')}/${target.folder}` : target.folder;
      return { settings: { ...settings, prefix, ...(target.acl ? { acl: target.acl } : {}) }, egress: this.guarded };
    }
    if (!this.s3 || !this.bucketsOf(Number(config.company_id)).includes(target.bucket)) {
      throw new AppRunError(`the bucket ${target.bucket} is no longer one this service hosts batches in`, { retryable: false });
    }
    return {
      settings: {
        endpoint: this.s3.endpoint,
        region: this.s3.region,
        bucket: target.bucket,
        access_key: this.s3.accessKey,
        secret_key: this.s3.secretKey,
        prefix: target.folder,
        acl: target.acl,
        path_style: true,
        // S3_ENDPOINT is the service's internal address: readers get the public one, or no link at all.
        public_url: this.hosting.publicUrl ?? '',
      },
      egress: operatorEgress,
    };
  }

  /** The id of the account's own s3 app configuration whose bucket is `bucket` (the oldest when several). */
  private async ownConfigFor(companyId: number, bucket: string): Promise<number | null> {
    const rows: { id: number; settings: Record<string, unknown> }[] = await this.db('app_configs').where({ company_id: companyId, type: 's3', hidden: false }).orderBy('id').select('id', 'settings');
    const row = rows.find((r) => r.settings.bucket === bucket);
    return row ? Number(row.id) : null;
  }
}
