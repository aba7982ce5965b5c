import type { Readable } from 'node:stream';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../../core/db/connect.js';
import { notFound } from '../../core/errors.js';

export interface StoredFileRow { storage_key: string; content_type: string; size_bytes: number; kind: string; shot: number | null }

/** Finds a finished screenshot's stored file of one kind (and shot), scoped by account; 404 otherwise. */
export async function findFile(db: Db, companyId: number, id: number, kind: 'image' | 'html' | 'pdf' | 'video', shot: number | null): Promise<StoredFileRow> {
  const shotRow = await db('screenshots').where({ company_id: companyId, id }).first('status');
  if (!shotRow) throw notFound('Screenshot');
  const q = db('screenshot_files').where({ company_id: companyId, screenshot_id: id, kind });
  if (shot !== null) q.andWhere({ shot });
  const file = await q.orderBy('shot').first('storage_key', 'content_type', 'size_bytes', 'kind', 'shot');
  if (shotRow.status !== 'finished' || !file) {
    throw notFound(kind === 'image' ? 'Screenshot image (not ready, or no image was captured)' : `The ${kind} output (not requested, not ready or deleted)`);
  }
  return { ...file, size_bytes: Number(file.size_bytes) };
}

export async function readAll(store: ObjectStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await store.get(key) as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
