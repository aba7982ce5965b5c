/** The states of a crawl (spec: Crawl). */
export type CrawlStatus = 'processing' | 'finished' | 'cancelled' | 'error';

/** A crawl row as stored. `options` holds the screenshot options every page is created with. */
export interface CrawlRow {
  id: number;
  company_id: number;
  api_key_id: number | null;
  status: CrawlStatus;
  error: string;
  domain: string;
  start_url: string;
  max_urls: number;
  total_discovered: number;
  processed: number;
  failed: number;
  options: { screenshot?: Record<string, unknown> };
  started: number | null;
  finished: number | null;
  created_at: Date | string;
}

/** Seconds since the epoch: the spec's `started` and `finished`. */
export const unixNow = (): number => Math.floor(Date.now() / 1000);

/** The Crawl of the spec; `error` is there when the status is `error`, as on a Screenshot. */
export function toCrawlRecord(row: CrawlRow): Record<string, unknown> {
  return {
    id: Number(row.id),
    status: row.status,
    ...(row.status === 'error' ? { error: row.error } : {}),
    domain: row.domain,
    start_url: row.start_url,
    max_urls: row.max_urls,
    total_discovered: row.total_discovered,
    processed: row.processed,
    failed: row.failed,
    created_at: new Date(row.created_at).toISOString(),
    started: row.started === null ? 0 : Number(row.started),
    finished: row.finished === null ? 0 : Number(row.finished),
  };
}
