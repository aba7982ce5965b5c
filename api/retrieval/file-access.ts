import type { Readable } from 'node:stream';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import { notFound } from '../../core/errors.js';
import { screenshotWithFile } from '../screenshots/screenshot-reads.js';

export interface StoredFileRow {
  storage_key: string;
  content_type: string;
  size_bytes: number;
  kind: string;
  shot: number | null;
}

/** Finds a finished screenshot's stored file of one kind (and shot), scoped by account; 404 otherwise. */
export async function findFile(db: Db, companyId: number, id: number, kind: 'image' | 'html' | 'markdown' | 'pdf' | 'video' | 'diff', shot: number | null): Promise<StoredFileRow> {
  const row = await screenshotWithFile(db, companyId, id, kind, shot);
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
