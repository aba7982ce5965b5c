import type { Knex } from 'knex';
import type { Db } from '../db/connect.js';
import type { QueryTree } from '../options/query-input.js';
import { unixNow, type CrawlRow, type CrawlStatus } from './crawl-record.js';

/** Reads and writes crawl rows. Reads for a caller are scoped by company; the advancer's are internal. */
export class CrawlStore {
  /** `finished` runs once when a crawl ends finished (not cancelled or failed); it must not throw. */
  constructor(
    private readonly db: Db,
    private readonly finished: (crawlId: number) => Promise<void> = async () => undefined,
  ) {}

  async insert(trx: Knex.Transaction, crawl: { companyId: number; apiKeyId: number | null; domain: string; startUrl: string; maxUrls: number; options: QueryTree }): Promise<number> {
    const [row] = await trx('crawls')
      .insert({
        company_id: crawl.companyId,
        api_key_id: crawl.apiKeyId,
        domain: crawl.domain,
        start_url: crawl.startUrl,
        max_urls: crawl.maxUrls,
        // jsonb: passed as JSON text, because node-postgres would send a JS array inside as a Postgres array.
        options: JSON.stringify({ screenshot: crawl.options }),
        total_discovered: 1,
        started: unixNow(),
      })
      .returning('id');
    return Number(row.id);
  }

  async find(id: number, db: Knex = this.db): Promise<CrawlRow | null> {
    return ((await db('crawls').where({ id }).first()) as CrawlRow | undefined) ?? null;
  }

  async findOwned(companyId: number, id: number): Promise<CrawlRow | null> {
    return ((await this.db('crawls').where({ company_id: companyId, id }).first()) as CrawlRow | undefined) ?? null;
  }

  async list(companyId: number, limit: number, offset: number): Promise<CrawlRow[]> {
    return this.db('crawls').where({ company_id: companyId }).orderBy('id', 'desc').limit(limit).offset(offset);
  }

  /** Ends a crawl that is still processing; a crawl that already ended keeps its state. */
  async end(id: number, status: Exclude<CrawlStatus, 'processing'>, error = ''): Promise<void> {
    const changed = await this.db('crawls').where({ id, status: 'processing' }).update({ status, error, finished: unixNow() });
    if (Number(changed) > 0 && status === 'finished') await this.finished(id);
  }
}
