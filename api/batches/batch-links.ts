import { PassThrough } from 'node:stream';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import type { AppContext } from '../http/state.js';
import { attachment } from '../retrieval/content-disposition.js';
import { sendStoredContent } from '../retrieval/stored-content.js';
import type { BatchRow } from './batch-record.js';
import type { BatchOptions } from './batch-service.js';
import { batchZipEntries } from './batch-zip-entries.js';
import { thumbnailOptionsOf, writeBatchZip } from './batch-zip.js';
import { signZipToken, verifyZipToken } from './zip-token.js';

/** A batch's ZIP: the signed `zip_url` that works without a key, and the streamed download itself. */
export class BatchLinks {
  constructor(
    private readonly db: Db,
    private readonly objects: ObjectStore,
    private readonly secret: string,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
    private readonly log: Logger,
  ) {}

  /** The signed, expiring download link; empty for hosting=s3 batches, whose files are not zipped. */
  zipUrl(batch: BatchRow): string {
    if ((batch as BatchRow & { options?: BatchOptions }).options?.hosting === 's3') return '';
    const expires = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    return `${this.publicUrl}/api/v1/batch/download?id=${batch.id}&token=${signZipToken(this.secret, Number(batch.id), expires)}`;
  }

  /** The batch a signed link names, or null when the token is wrong or expired. */
  async batchForToken(id: number, token: string): Promise<BatchRow | null> {
    if (!verifyZipToken(this.secret, id, token, Math.floor(Date.now() / 1000))) return null;
    return ((await this.db('batches').where({ id }).first()) as BatchRow | undefined) ?? null;
  }

  /**
   * Streams the batch's ZIP as it is written: files are read from storage one at a time and piped into
   * the archive, so memory stays flat whatever the batch size. What has finished so far is included.
   */
  async stream(ctx: AppContext, batch: BatchRow): Promise<void> {
    const options = ((batch as BatchRow & { options?: BatchOptions }).options ?? {}) as BatchOptions;
    const out = new PassThrough();
    ctx.set('Cache-Control', 'private, no-store');
    sendStoredContent(ctx, { type: 'application/zip', body: out, disposition: attachment(`batch-${batch.id}.zip`) });
    writeBatchZip(out, batchZipEntries(this.db, batch, options), { objects: this.objects, thumbnail: thumbnailOptionsOf(options) }).catch((err: unknown) => {
      // Headers are gone already: the only honest signal left is a broken download.
      this.log.error({ err, batch: batch.id }, 'batch ZIP failed while streaming');
      out.destroy(err as Error);
    });
  }
}
