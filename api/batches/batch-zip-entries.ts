import type { Db } from '../db/connect.js';
import { renderFilename, renderRowFilename, type FilenameVars } from '../../core/batch/filename-template.js';
import { batchFilesPage } from '../screenshots/screenshot-reads.js';
import type { BatchRow } from './batch-record.js';
import type { BatchOptions } from './batch-service.js';
import type { ZipEntryInput } from './batch-zip.js';

/** Rows read per query while the ZIP streams: small enough to keep memory flat, big enough to be quick. */
const PAGE = 200;

/**
 * The files of a batch's finished screenshots, in screenshot order, named by the batch's filename
 * template (or the file's per-row `filename` column), read page by page.
 */
export async function* batchZipEntries(db: Db, batch: BatchRow, options: BatchOptions): AsyncGenerator<ZipEntryInput> {
  let after = 0;
  let lastId = 0;
  for (;;) {
    const rows = await batchFilesPage(db, batch.id, after, PAGE);
    if (rows.length === 0) return;
    for (const r of rows) {
      const id = Number(r.screenshot_id);
      // A retry's files take the place of the failed record's: its id names them, and its row's filename.
      const named = r.retry_of === null ? id : Number(r.retry_of);
      const perRow = options.filenames?.[String(named)];
      const vars: FilenameVars = { id: named, url: r.url, browser: r.browser, country: r.country, shot: r.shot, tags: r.tag as string[], date: new Date(r.created_at) };
      // A file's own `filename` column wins over the template (the ZIP writer keeps colliding names apart).
      const name = perRow !== undefined ? renderRowFilename(perRow, vars) : renderFilename(options.filename_template ?? null, vars);
      // metadata=1: the record's metadata as <name>.json, once per screenshot, before its first file.
      if (id !== lastId && r.metadata !== null) {
        const content = Buffer.from(`${JSON.stringify(typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata, null, 2)}\n`, 'utf8');
        const jsonName = perRow !== undefined ? renderRowFilename(perRow, { ...vars, shot: null }) : renderFilename(options.filename_template ?? null, { ...vars, shot: null });
        yield { name: jsonName, kind: 'metadata', shot: null, storageKey: '', contentType: 'application/json', size: content.length, content };
      }
      lastId = id;
      yield { name, kind: r.kind, shot: r.shot, storageKey: r.storage_key, contentType: r.content_type, size: Number(r.size_bytes) };
      after = Math.max(after, id);
    }
  }
}
