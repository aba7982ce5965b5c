import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import { SignedFileLinks } from '../retrieval/signed-file-links.js';

/**
 * A monitor run's diff image behind a signed, expiring link (`…/monitor/diff?id=<screenshot id>&token=…`),
 * as the monitor.changed event and GET /monitor/runs give it. The same secret and lifetime as the screenshot
 * image links beside it in the event.
 */
export class DiffLinks extends SignedFileLinks {
  constructor(db: Db, objects: ObjectStore, secret: string, publicUrl: string, ttlSeconds: number) {
    super(db, objects, secret, publicUrl, ttlSeconds, { path: '/monitor/diff', purpose: 'monitor-diff', kind: 'diff' });
  }
}
