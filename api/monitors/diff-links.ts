import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../../core/db/connect.js';
import type { AppContext } from '../http/state.js';
import { findFile } from '../retrieval/file-access.js';
import { signLinkToken, verifyLinkToken } from '../retrieval/link-token.js';

/**
 * A monitor run's diff image behind a signed, expiring link (`…/monitor/diff?id=<screenshot id>&token=…`),
 * as the monitor.changed event and GET /monitor/runs give it: a receiver opens it without an API key.
 * The same secret and lifetime as the screenshot image links beside it in the event.
 */
export class DiffLinks {
  constructor(
    private readonly db: Db,
    private readonly objects: ObjectStore,
    private readonly secret: string,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
  ) {}

  url(screenshotId: number): string {
    const expires = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    return `${this.publicUrl}/api/v1/monitor/diff?id=${screenshotId}&token=${signLinkToken(this.secret, 'monitor-diff', screenshotId, expires)}`;
  }

  allows(screenshotId: number, token: string): boolean {
    return verifyLinkToken(this.secret, 'monitor-diff', screenshotId, token, Math.floor(Date.now() / 1000));
  }

  /** Streams the diff image of a screenshot of `companyId` (null: the signed link's, whoever owns it); 404 when there is none. */
  async stream(ctx: AppContext, companyId: number | null, screenshotId: number): Promise<void> {
    const owner = companyId ?? Number((await this.db('screenshots').where({ id: screenshotId }).first('company_id'))?.company_id ?? 0);
    const file = await findFile(this.db, owner, screenshotId, 'diff', 1);
    ctx.type = file.content_type;
    ctx.length = file.size_bytes;
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.body = await this.objects.get(file.storage_key);
  }
}
