import type { Knex } from 'knex';
import type { Config } from '../../core/config/config.js';
import type { AppSettingsCodec } from './app-settings-codec.js';

/**
 * Batch `hosting=s3`: each screenshot of the batch is uploaded by the s3 app with the SERVICE's storage
 * account (S3_*), into `hosting_bucket` (or the service's bucket), under `batch-<id>/`, public-read
 * unless `hosting_private`. The configuration is hidden: it shows in the records' AppStatus but the
 * customer cannot list, read or edit it (it holds the service's credentials).
 */
export class BatchHosting {
  constructor(
    private readonly s3: Config['s3'],
    private readonly codec: AppSettingsCodec,
  ) {}

  /** Why hosting=s3 cannot be offered here, or null when it can. */
  unavailableReason(): string | null {
    return this.s3 ? null : 'hosting=s3 needs the service to store files in S3 (S3_ENDPOINT); this installation keeps them on its own disk';
  }

  async createConfig(trx: Knex.Transaction, companyId: number, batchId: number, opts: { bucket?: string; private?: boolean }): Promise<number> {
    if (!this.s3) throw new Error(this.unavailableReason() ?? '');
    const settings = {
      endpoint: this.s3.endpoint,
      region: this.s3.region,
      bucket: opts.bucket ?? this.s3.bucket,
      access_key: this.s3.accessKey,
      secret_key: this.s3.secretKey,
      prefix: `batch-${batchId}`,
      acl: opts.private ? 'private' : 'public-read',
      path_style: true,
    };
    const [row] = await trx('app_configs')
      .insert({
        company_id: companyId,
        app_id: `_hosting_batch_${batchId}`,
        type: 's3',
        name: `Batch ${batchId} hosting`,
        hidden: true,
        settings: JSON.stringify(this.codec.seal('s3', settings)),
      })
      .returning('id');
    return Number(row.id);
  }
}
