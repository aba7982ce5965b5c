import type { Knex } from 'knex';
import type { Db } from '../db/connect.js';

/** A URL of a crawl's frontier. */
export interface FrontierUrl {
  id: number;
  url: string;
  host: string;
}

/** Rows per INSERT: 4 parameters each keeps a page with thousands of links far below Postgres' 65,535. */
const INSERT_CHUNK = 1000;

/**
 * The crawl_urls table: the URLs a crawl has seen and where each stands. `discovered` → `queued` (its
 * screenshot exists) → `done` (the screenshot ended). Every transition is a conditional update, so doing
 * one twice changes nothing and says so.
 */
export class CrawlFrontier {
  constructor(private readonly db: Db) {}

  /** The start URL: queued at once, since its screenshot is created in the same transaction. */
  async seed(trx: Knex.Transaction, crawlId: number, page: { url: string; host: string }): Promise<number> {
    const [row] = await trx('crawl_urls').insert({ crawl_id: crawlId, url: page.url, host: page.host, status: 'queued' }).returning('id');
    return Number(row.id);
  }

  /** Adds the URLs this crawl has not seen yet; returns how many were new. */
  async discover(trx: Knex.Transaction, crawlId: number, pages: { url: string; host: string }[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < pages.length; i += INSERT_CHUNK) {
      const rows = pages.slice(i, i + INSERT_CHUNK).map((p) => ({ crawl_id: crawlId, url: p.url, host: p.host }));
      added += (await trx('crawl_urls').insert(rows).onConflict(['crawl_id', 'url']).ignore().returning('id')).length;
    }
    return added;
  }

  /** discovered → queued, in the transaction that creates the URL's screenshot; false if taken already. */
  async claim(trx: Knex.Transaction, urlId: number): Promise<boolean> {
    return (await trx('crawl_urls').where({ id: urlId, status: 'discovered' }).update({ status: 'queued' })) === 1;
  }

  /** Records which screenshot captures a queued URL (its id exists only once the creating transaction is done). */
  async link(urlId: number, screenshotId: number): Promise<void> {
    await this.db('crawl_urls').where({ id: urlId }).update({ screenshot_id: screenshotId });
  }

  /** queued → done for a screenshot's URL; false when it was done already (a result seen twice). */
  async complete(trx: Knex.Transaction, crawlId: number, screenshotId: number): Promise<boolean> {
    return (await trx('crawl_urls').where({ crawl_id: crawlId, screenshot_id: screenshotId, status: 'queued' }).update({ status: 'done' })) === 1;
  }

  async count(crawlId: number, statuses: ('discovered' | 'queued' | 'done')[]): Promise<number> {
    const row = await this.db('crawl_urls').where({ crawl_id: crawlId }).whereIn('status', statuses).count('* as n').first();
    return Number(row?.n ?? 0);
  }

  /** Screenshots being captured for this crawl. */
  async queued(crawlId: number): Promise<{ id: number; screenshotId: number }[]> {
    const rows = await this.db('crawl_urls').where({ crawl_id: crawlId, status: 'queued' }).whereNotNull('screenshot_id').orderBy('id').select('id', 'screenshot_id');
    return rows.map((r: { id: number; screenshot_id: number }) => ({ id: Number(r.id), screenshotId: Number(r.screenshot_id) }));
  }

  /**
   * The next URLs to visit, breadth first (oldest discovered first), at most `limit`, skipping what would
   * put more than `perHost` pages of one host in flight: a host's waiting URLs are ranked, and a URL may
   * go when its rank plus the host's pages in flight stays within the limit.
   */
  async next(crawlId: number, perHost: number, limit: number): Promise<FrontierUrl[]> {
    const { rows } = await this.db.raw(
      `
      with flight as (
        select host, count(*) as n from crawl_urls where crawl_id = ? and status = 'queued' group by host
      ), waiting as (
        select id, url, host, row_number() over (partition by host order by id) as rank
        from crawl_urls where crawl_id = ? and status = 'discovered'
      )
      select w.id, w.url, w.host from waiting w left join flight f on f.host = w.host
      where w.rank + coalesce(f.n, 0) <= ? order by w.id limit ?`,
      [crawlId, crawlId, perHost, limit],
    );
    return (rows as FrontierUrl[]).map((r) => ({ id: Number(r.id), url: r.url, host: r.host }));
  }
}
