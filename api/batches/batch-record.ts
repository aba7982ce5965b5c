/** A batch row as stored. */
export interface BatchRow {
  id: number;
  company_id: number;
  name: string | null;
  status: 'processing' | 'finished' | 'error';
  error: string;
  count: number;
  processed: number;
  failed: number;
  started: number | null;
  finished: number | null;
}

/** The Batch of the spec. `zip_url` is filled once the batch has an archive to download. */
export function toBatchRecord(row: BatchRow, zipUrl = ''): Record<string, unknown> {
  return {
    id: Number(row.id),
    status: row.status,
    error: row.error,
    started: row.started === null ? 0 : Number(row.started),
    finished: row.finished === null ? 0 : Number(row.finished),
    count: row.count,
    processed: row.processed,
    failed: row.failed,
    zip_url: zipUrl,
  };
}
