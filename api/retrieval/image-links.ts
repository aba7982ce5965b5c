import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import { SignedFileLinks } from './signed-file-links.js';

/**
 * A screenshot's image behind a signed, expiring link (`…/screenshot/thumbnail?id=…&token=…`): what a
 * webhook in the original service's format sends as `image_url`, and a monitor event as its before and
 * after links. The link opens the first shot as stored.
 */
export class ImageLinks extends SignedFileLinks {
  constructor(db: Db, objects: ObjectStore, secret: string, publicUrl: string, ttlSeconds: number) {
    super(db, objects, secret, publicUrl, ttlSeconds, { path: '/screenshot/thumbnail', purpose: 'screenshot-image', kind: 'image' });
  }
}
