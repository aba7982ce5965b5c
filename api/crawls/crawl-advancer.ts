import type { Knex } from 'knex';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import { ApiError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { buildCrawlPage } from './crawl-request.js';
import { linksInScope } from './crawl-scope.js';
import type { QueryTree } from '../options/query-input.js';
import type { Caller } from '../http/state.js';
import type { ScreenshotService } from '../screenshots/screenshot-service.js';
import type { CrawlRow } from './crawl-record.js';
import type { CrawlFrontier, FrontierUrl } from './crawl-frontier.js';
import type { CrawlStore } from './crawl-store.js';
import { createContextOf } from '../options/create-request.js';
import { screenshotOutcome } from '../screenshots/screenshot-reads.js';

/** A screenshot of a crawl that ended: from the recorder, or at once (a cache hit, a job that could not be queued). */
export interface PageOutcome {
  screenshotId: number;
  status: 'finished' | 'error';
  links: string[];
}

/** Thrown inside the creating transaction when the crawl stopped or the URL was taken: nothing is created. */
class CrawlStopped extends Error {}

/**
 * Moves a crawl forward after pages end: counts them, adds the same-domain links of finished pages to
 * the frontier, creates the next pages (breadth first, within max_urls and the per-host limit), and ends
 * the crawl when nothing is in flight and nothing is left to visit. Callers hold the crawl's lock.
 */
export class CrawlAdvancer {
  constructor(
    private readonly db: Db,
    private readonly crawls: CrawlStore,
    private readonly frontier: CrawlFrontier,
    private readonly screenshots: ScreenshotService,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  async advance(crawlId: number, outcomes: PageOutcome[]): Promise<void> {
    const pending = [...outcomes];
    for (;;) {
      for (let o = pending.shift(); o; o = pending.shift()) await this.record(crawlId, o);
      const crawl = await this.crawls.find(crawlId);
      if (!crawl || crawl.status !== 'processing') return;
      const settledAtOnce = await this.createNext(crawl);
      if (settledAtOnce.length === 0) return this.finishIfDone(crawl);
      pending.push(...settledAtOnce);
    }
  }

  /**
   * After a page's screenshot was created: remembers which screenshot it is, and returns its outcome
   * when it is already over (a cache hit is finished at once; a job the queue refused is an error).
   */
  async created(urlId: number, screenshotId: number): Promise<PageOutcome | null> {
    await this.frontier.link(urlId, screenshotId);
    const row = await screenshotOutcome(this.db, screenshotId);
    if (!row || row.status === 'processing') return null;
    return { screenshotId, status: row.status as 'finished' | 'error', links: row.links };
  }

  /** Counts an ended page once, and adds its links to the frontier while the crawl goes on. */
  private async record(crawlId: number, o: PageOutcome): Promise<void> {
    await this.db.transaction(async (trx) => {
      const crawl = await trx('crawls').where({ id: crawlId }).forUpdate().first('status', 'domain');
      if (!crawl || !(await this.frontier.complete(trx, crawlId, o.screenshotId))) return;
      await trx('crawls')
        .where({ id: crawlId })
        .increment(o.status === 'finished' ? 'processed' : 'failed', 1);
      if (o.status !== 'finished' || crawl.status !== 'processing') return;
      const added = await this.frontier.discover(trx, crawlId, linksInScope(o.links, crawl.domain));
      if (added > 0) await trx('crawls').where({ id: crawlId }).increment('total_discovered', added);
    });
  }

  /** Creates the next pages; returns the outcomes of those that ended at once. */
  private async createNext(crawl: CrawlRow): Promise<PageOutcome[]> {
    const pages = await this.frontier.count(crawl.id, ['queued', 'done']);
    const room = crawl.max_urls - pages;
    if (room <= 0) return [];
    const outcomes: PageOutcome[] = [];
    for (const [i, next] of (await this.frontier.next(crawl.id, this.config.farm.crawlHostConcurrency, room)).entries()) {
      const created = await this.createPage(crawl, next, pages + i);
      if (created === 'stopped') break;
      if (created) outcomes.push(created);
    }
    return outcomes;
  }

  /** One page, created like any screenshot of the account (balance check, bulk tier), or the crawl ends. */
  private async createPage(crawl: CrawlRow, next: FrontierUrl, pagesSoFar: number): Promise<PageOutcome | null | 'stopped'> {
    // The crawl's pages are the crawl creator's requests: same account, same key.
    const caller: Caller = { companyId: Number(crawl.company_id), apiKeyId: crawl.api_key_id === null ? null : Number(crawl.api_key_id), userId: null, credential: `crawl:${crawl.id}`, roles: [] };
    try {
      const page = buildCrawlPage((crawl.options.screenshot ?? {}) as QueryTree, next.url, createContextOf(this.config));
      const appConfigIds = await this.screenshots.appConfigIds(caller, page.apps);
      const [row] = await this.screenshots.createDrafts(caller, [page.draft], {
        bulk: true,
        appConfigIds,
        prepare: async (trx) => this.claim(trx, crawl.id, next.id),
      });
      if (!row) throw new Error('createDrafts returned no record for one draft');
      return await this.created(next.id, row.id);
    } catch (err) {
      if (err instanceof CrawlStopped) return 'stopped';
      await this.crawls.end(crawl.id, 'error', this.stopReason(err, crawl.id, pagesSoFar));
      return 'stopped';
    }
  }

  /** In the creating transaction: the crawl still runs and the URL is still waiting, or nothing is created. */
  private async claim(trx: Knex.Transaction, crawlId: number, urlId: number): Promise<{ crawl_id: number }> {
    const crawl = await trx('crawls').where({ id: crawlId }).forUpdate().first('status');
    if (crawl?.status !== 'processing' || !(await this.frontier.claim(trx, urlId))) throw new CrawlStopped();
    return { crawl_id: crawlId };
  }

  private stopReason(err: unknown, crawlId: number, pages: number): string {
    if (err instanceof ApiError && err.code === 'INSUFFICIENT_BALANCE') {
      return `Insufficient balance: the crawl stopped after ${pages} page(s); add credits and start a new crawl to go on`;
    }
    if (err instanceof ApiError && err.expose) return `The crawl stopped after ${pages} page(s): the next page could not be created (${err.message})`;
    this.log.error({ err, crawlId }, 'could not create the next page of a crawl');
    return `The crawl stopped after ${pages} page(s): the next page could not be created (internal error)`;
  }

  /** Finished when nothing is in flight and there is nothing more to visit (or max_urls pages exist). */
  private async finishIfDone(crawl: CrawlRow): Promise<void> {
    if ((await this.frontier.count(crawl.id, ['queued'])) > 0) return;
    const room = crawl.max_urls - (await this.frontier.count(crawl.id, ['done']));
    if (room > 0 && (await this.frontier.count(crawl.id, ['discovered'])) > 0) return;
    await this.crawls.end(crawl.id, 'finished');
  }
}
