import type { Knex } from 'knex';
import type { ObjectStore } from '../../core/contracts/object-store.js';

/**
 * Deletes stored objects that no screenshot_files row references any more. A cache hit copies the
 * file rows of the screenshot it reuses, so one object can belong to several records: it goes only
 * when the last of them lets go.
 */
export async function deleteUnreferencedObjects(db: Knex, store: ObjectStore, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const stillUsed = new Set<string>(await db('screenshot_files').whereIn('storage_key', keys).distinct().pluck('storage_key'));
  for (const key of keys.filter((k) => !stillUsed.has(k))) await store.delete(key);
}
