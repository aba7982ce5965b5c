import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import type { AppContext } from '../http/state.js';
import { findFile } from './file-access.js';
import { signLinkToken, verifyLinkToken, type LinkKind } from './link-token.js';
import { ownerOfScreenshot } from '../screenshots/screenshot-reads.js';

/** Which stored file of a screenshot a kind of signed link opens, and at which path of the API. */
export interface SignedFile {
  /** the route under /api/v1 that answers `?id=<screenshot id>&token=…` */
  path: string;
  /** what the token is signed for: a token of one kind of link never opens another */
  purpose: LinkKind;
  /** the screenshot_files kind it opens (its first shot) */
  kind: Parameters<typeof findFile>[3];
}

/**
 * One stored file of a screenshot behind a signed, expiring link (`…<path>?id=<screenshot id>&token=…`), so a
 * receiver (a webhook, a monitor event) fetches it without an API key. The link opens that file of that
 * screenshot, and nothing else.
 */
export class SignedFileLinks {
  constructor(
    private readonly db: Db,
    private readonly objects: ObjectStore,
    private readonly secret: string,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
    private readonly file: SignedFile,
  ) {}

  url(screenshotId: number): string {
    const expires = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    return `${this.publicUrl}/api/v1${this.file.path}?id=${screenshotId}&token=${signLinkToken(this.secret, this.file.purpose, screenshotId, expires)}`;
  }

  /** Whether the token opens this screenshot's file now. */
  allows(screenshotId: number, token: string): boolean {
    return verifyLinkToken(this.secret, this.file.purpose, screenshotId, token, Math.floor(Date.now() / 1000));
  }

  /**
   * Streams the file of a screenshot of `companyId` (null: a signed link's, whoever owns the screenshot);
   * 404 (from findFile) when the record or its file is gone.
   */
  async stream(ctx: AppContext, companyId: number | null, screenshotId: number): Promise<void> {
    const owner = companyId ?? (await ownerOfScreenshot(this.db, screenshotId));
    const file = await findFile(this.db, owner, screenshotId, this.file.kind, 1);
    ctx.type = file.content_type;
    ctx.length = file.size_bytes;
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.body = await this.objects.get(file.storage_key);
  }
}
