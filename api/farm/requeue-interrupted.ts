import type { Db } from '../db/connect.js';
import { processingRecords } from '../screenshots/screenshot-reads.js';
import type { Logger } from '../../core/logger.js';
import { CAPTURE_OPTIONS } from '../options/create-params.js';
import { storedOptionValues } from '../options/option-table.js';
import { routeOfRecord } from '../../grid/scheduling/routing.js';
import type { FarmDispatcher, FarmWork } from './farm-dispatcher.js';

/**
 * The in-process queue of embedded mode lives in memory: when the process dies without draining (kill -9,
 * a crash, the machine losing power), its records stay `processing` with no job anywhere, holding their
 * credits forever. At start the queue is empty, so every record still `processing` is such a record: its
 * job is queued again from the spec stored on it, with the route it was given at create, and it ends like
 * any other (charged once, by the recorder). Only for the in-process queue: JetStream keeps jobs across
 * restarts, and agents elsewhere may be working on them.
 *
 * Returns how many jobs were queued again.
 */
export async function requeueInterrupted(db: Db, dispatcher: FarmDispatcher, proxies: Record<string, string>, log: Logger): Promise<number> {
  const rows = await processingRecords(db);
  if (rows.length === 0) return 0;
  const work = (bulk: boolean): FarmWork[] =>
    rows
      .filter((r) => (r.batch_id !== null || r.crawl_id !== null) === bulk)
      .map((r) => ({
        id: Number(r.id),
        companyId: Number(r.company_id),
        priority: Number(storedOptionValues(CAPTURE_OPTIONS, r).priority),
        spec: r.capture_spec,
        route: routeOfRecord(r.routing, proxies),
        requestId: r.request_id,
      }));
  // Batch and crawl pages go to the bulk tier, as when they were created. A job not queued ends its record.
  const notQueued = [...(await dispatcher.dispatch(work(false))), ...(await dispatcher.dispatch(work(true), true))];
  log.warn({ requeued: rows.length - notQueued.length, failed: notQueued.length }, 'queued again the captures a previous run left unfinished');
  return rows.length - notQueued.length;
}
