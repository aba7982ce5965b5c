import type { Config } from '../../core/config/config.js';
import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { Db } from '../db/connect.js';
import { notFound } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { buildCrawlRequest } from './crawl-request.js';
import { crawlKey } from './crawl-scope.js';
import type { QueryTree } from '../options/query-input.js';
import type { ScreenshotRow } from '../screenshots/screenshot-record.js';
import type { ResultListener } from '../farm/result-recorder.js';
import type { Caller } from '../http/state.js';
import type { ScreenshotRecords } from '../screenshots/screenshot-records.js';
import type { ScreenshotService } from '../screenshots/screenshot-service.js';
import { CrawlAdvancer } from './crawl-advancer.js';
import { dropQueuedPages } from './crawl-cancel.js';
import { CrawlFrontier } from './crawl-frontier.js';
import type { CrawlRow } from './crawl-record.js';
import { CrawlStore } from './crawl-store.js';
import { KeyedMutex } from './keyed-mutex.js';
import { createContextOf } from '../options/create-request.js';
import { endedCrawlPages } from '../screenshots/screenshot-reads.js';

/**
 * The application service behind the /crawl operations. Everything that changes a crawl (create, a
 * page's result, cancel) runs under the crawl's lock, one at a time: the API process is the only
 * recorder, so an in-process lock orders them, and conditional updates guard the database besides.
 */
export class CrawlService {
  private readonly locks = new KeyedMutex();
  private readonly store: CrawlStore;
  private readonly frontier: CrawlFrontier;
  private readonly advancer: CrawlAdvancer;
  private readonly finishedListeners: ((crawl: CrawlRow) => Promise<void>)[] = [];

  constructor(
    private readonly db: Db,
    private readonly screenshots: ScreenshotService,
    private readonly queue: JobQueue,
    private readonly records: ScreenshotRecords,
    private readonly config: Config,
    log: Logger,
  ) {
    this.store = new CrawlStore(db, async (crawlId) => {
      const crawl = await this.store.find(crawlId);
      for (const listener of this.finishedListeners) {
        if (crawl) await listener(crawl).catch((err: unknown) => log.error({ err, crawlId }, 'a crawl.finished listener failed'));
      }
    });
    this.frontier = new CrawlFrontier(db);
    this.advancer = new CrawlAdvancer(db, this.store, this.frontier, screenshots, config, log);
  }

  /** Runs once when a crawl ends finished (not when it is cancelled or stops on an error). */
  onFinished(listener: (crawl: CrawlRow) => Promise<void>): void {
    this.finishedListeners.push(listener);
  }

  /**
   * At start-up: crawls that a stop or crash interrupted go on. Pages whose screenshots ended while no
   * listener ran (the process died between recording a result and advancing its crawl) are counted now,
   * then each crawl creates its next pages or finishes, as if the results had just arrived.
   */
  async resume(): Promise<number> {
    const ids = (await this.db('crawls').where({ status: 'processing' }).pluck('id')).map(Number);
    for (const crawlId of ids) {
      await this.locks.run(crawlId, async () => {
        const ended = await endedCrawlPages(this.db, crawlId);
        await this.advancer.advance(
          crawlId,
          ended.map((r) => ({ screenshotId: Number(r.id), status: r.status, links: r.links })),
        );
      });
    }
    return ids.length;
  }

  /** The recorder's listener: a page of a crawl ended. */
  readonly onResult: ResultListener = async (s) => {
    const crawlId = s.crawlId;
    if (crawlId === null) return;
    await this.locks.run(crawlId, () => this.advancer.advance(crawlId, [{ screenshotId: s.id, status: s.status, links: s.links }]));
  };

  /**
   * Validates the request and creates the crawl with its first page in one transaction (with the
   * balance check): nothing exists when any check fails.
   */
  async create(caller: Caller, input: QueryTree): Promise<CrawlRow> {
    const request = buildCrawlRequest(input, createContextOf(this.config));
    const appConfigIds = await this.screenshots.appConfigIds(caller, request.apps);
    const start = crawlKey(request.startUrl);
    if (!start) throw new Error(`a validated start URL has no crawl key: ${request.startUrl}`);
    // Filled in by `prepare`, inside the creating transaction.
    const held: { release?: () => void; crawlId?: number; urlId?: number } = {};
    try {
      const [row] = await this.screenshots.createDrafts(caller, [request.draft], {
        bulk: true,
        appConfigIds,
        prepare: async (trx) => {
          const crawlId = await this.store.insert(trx, {
            companyId: caller.companyId,
            apiKeyId: caller.apiKeyId,
            domain: request.domain,
            startUrl: start.url,
            maxUrls: request.maxUrls,
            options: request.options,
          });
          // A new id: the lock is free at once. Held until the page is linked, so its result waits for that.
          held.release = await this.locks.acquire(crawlId);
          held.crawlId = crawlId;
          held.urlId = await this.frontier.seed(trx, crawlId, start);
          return { crawl_id: crawlId };
        },
      });
      if (!row || held.crawlId === undefined || held.urlId === undefined) throw new Error("the crawl's first page was not created");
      const outcome = await this.advancer.created(held.urlId, row.id);
      if (outcome) await this.advancer.advance(held.crawlId, [outcome]);
      return (await this.store.find(held.crawlId)) as CrawlRow;
    } finally {
      held.release?.();
    }
  }

  async get(caller: Caller, id: number): Promise<{ crawl: CrawlRow; screenshots: ScreenshotRow[] }> {
    const crawl = await this.store.findOwned(caller.companyId, id);
    if (!crawl) throw notFound('Crawl');
    // A crawl has at most max_urls screenshots; they are listed in the order the crawl visited them.
    const screenshots = await this.screenshots.list(caller, { crawlId: id, limit: crawl.max_urls, offset: 0 });
    return { crawl, screenshots: screenshots.reverse() };
  }

  async list(caller: Caller, limit: number, offset: number): Promise<CrawlRow[]> {
    return this.store.list(caller.companyId, limit, offset);
  }

  /** Stops a crawl: no page is created after this, and queued pages are dropped uncharged. */
  async cancel(caller: Caller, id: number): Promise<CrawlRow> {
    return this.locks.run(id, async () => {
      const crawl = await this.store.findOwned(caller.companyId, id);
      if (!crawl) throw notFound('Crawl');
      await this.store.end(id, 'cancelled');
      await dropQueuedPages(this.records, this.queue, this.frontier, id);
      return (await this.store.find(id)) as CrawlRow;
    });
  }
}
