import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../../core/db/connect.js';
import type { AppContext } from '../http/state.js';
import { findFile } from './file-access.js';
import { signLinkToken, verifyLinkToken } from './link-token.js';

/**
 * A screenshot's image behind a signed, expiring link (`…/screenshot/thumbnail?id=…&token=…`): what a
 * webhook in the original service's format sends as `image_url`, so a receiver can fetch the image
 * without an API key. The link opens the first shot as stored, and nothing else.
 */
export class ImageLinks {
  constructor(
    private readonly db: Db,
    private readonly objects: ObjectStore,
    private readonly secret: string,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
  ) {}

  url(screenshotId: number): string {
    const expires = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    return `${this.publicUrl}/api/v1/screenshot/thumbnail?id=${screenshotId}&token=${signLinkToken(this.secret, 'screenshot-image', screenshotId, expires)}`;
  }

  /** Whether the token opens this screenshot's image now. */
  allows(screenshotId: number, token: string): boolean {
    return verifyLinkToken(this.secret, 'screenshot-image', screenshotId, token, Math.floor(Date.now() / 1000));
  }

  /** Streams the first shot; 404 (from findFile) when the record or its image is gone. */
  async stream(ctx: AppContext, screenshotId: number): Promise<void> {
    const owner = await this.db('screenshots').where({ id: screenshotId }).first('company_id');
    const file = await findFile(this.db, Number(owner?.company_id ?? 0), screenshotId, 'image', 1);
    ctx.type = file.content_type;
    ctx.length = file.size_bytes;
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.body = await this.objects.get(file.storage_key);
  }
}
