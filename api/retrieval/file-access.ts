import type { Readable } from 'node:stream';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import { notFound } from '../../core/errors.js';

export interface StoredFileRow {
  storage_key: string;
  content_type: string;
  size_bytes: number;
  kind: string;
  shot: number | null;
}

/** Finds a finished screenshot's stored file of one kind (and shot), scoped by account; 404 otherwise. */
export async function findFile(db: Db, companyId: number, id: number, kind: 'image' | 'html' | 'pdf' | 'video' | 'diff', shot: number | null): Promise<StoredFileRow> {
  // One query (every image download runs it): the record, and its file when there is one.
  const row = (await db('screenshots as s')
    .leftJoin('screenshot_files as f', (on) => {
      on.on('f.screenshot_id', 's.id').andOn('f.company_id', 's.company_id').andOnVal('f.kind', kind);
      if (shot !== null) on.andOnVal('f.shot', shot);
    })
    .where({ 's.company_id': companyId, 's.id': id })
    .orderBy('f.shot')
    .first('s.status', 'f.storage_key', 'f.content_type', 'f.size_bytes', 'f.kind', 'f.shot')) as ({ status: string } & { [K in keyof StoredFileRow]: StoredFileRow[K] | null }) | undefined;
  if (!row) throw notFound('Screenshot');
  const { status, ...file } = row;
  if (status !== 'finished' || file.storage_key === null) {
    throw notFound(kind === 'image' ? 'Screenshot image (not ready, or no image was captured)' : `The ${kind} output (not requested, not ready or deleted)`);
  }
  return { storage_key: file.storage_key, content_type: String(file.content_type), size_bytes: Number(file.size_bytes), kind: String(file.kind), shot: file.shot };
}

export async function readAll(store: ObjectStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await store.get(key)) as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
