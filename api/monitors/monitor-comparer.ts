import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import { diffKey } from '../../core/storage/storage-keys.js';
import type { AppEventEmitter } from '../apps/app-event-emitter.js';
import type { AppRegistry } from '../../plugins/registry.js';
import { readAll } from '../retrieval/file-access.js';
import type { ImageLinks } from '../retrieval/image-links.js';
import type { ScreenshotRecords } from '../screenshots/screenshot-records.js';
import { monitorRunsToCompare, previousFinishedRunShot, screenshotToCompare } from '../screenshots/screenshot-reads.js';
import type { DiffLinks } from './diff-links.js';
import { ComparisonError, diffImages, shotSize, type PixelBox } from './image-diff.js';
import { toMonitorRecord, type MonitorRow, type TextChanges } from './monitor-record.js';
import { textChanges } from './text-changes.js';

interface RunToCompare {
  id: number;
  monitor_id: number;
  screenshot_id: number;
}

/**
 * How long a claimed comparison may stay unfinished before another replica (or this one after a restart)
 * takes it over: the claimer died mid-comparison. A comparison reads two images and diffs them (seconds even
 * at 16 M pixels), so 5 minutes never cuts a live one short.
 */
export const COMPARE_LEASE_MS = 5 * 60_000;

/**
 * Compares a run's shot with the monitor's previous finished shot, once per run: the replica that claims
 * the run (compared = true, a conditional update) does it, whether the result just arrived here or a
 * sweep found the run after a restart. A change above the threshold emits `monitor.changed` to the
 * monitor's event-receiving apps (the webhook) and runs its other apps on the new screenshot.
 */
export class MonitorComparer {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      objects: ObjectStore;
      records: ScreenshotRecords;
      emitter: AppEventEmitter;
      registry: AppRegistry;
      imageLinks: ImageLinks;
      diffLinks: DiffLinks;
      log: Logger;
    },
  ) {}

  /** The recorder's listener: compares in the background, so results keep flowing while images are diffed. */
  onEnded(screenshotId: number): void {
    const work = this.compareScreenshot(screenshotId).catch((err: unknown) => this.deps.log.error({ err, screenshotId }, 'a monitor comparison failed'));
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /**
   * Runs whose screenshot ended while no listener heard it (a restart, a record ended without a result), and
   * runs whose comparison was claimed by a process that died before finishing it (the lease ran out).
   */
  async sweep(limit = 20): Promise<number> {
    const staleBefore = new Date(Date.now() - COMPARE_LEASE_MS);
    const runs: RunToCompare[] = await monitorRunsToCompare(this.deps.db, staleBefore, limit);
    for (const run of runs) await this.compare(run);
    return runs.length;
  }

  /** Waits for the comparisons under way (stop). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async compareScreenshot(screenshotId: number): Promise<void> {
    const run = (await this.deps.db('monitor_runs').where({ screenshot_id: screenshotId, compared: false }).first('id', 'monitor_id', 'screenshot_id')) as RunToCompare | undefined;
    if (run) await this.compare(run);
  }

  private async compare(run: RunToCompare): Promise<void> {
    const { db } = this.deps;
    // The claim: of the replicas (or a sweep and a listener) that see this run, one compares it. A claim
    // whose lease ran out is taken over (a conditional update: of two replicas taking it over, one does).
    const staleBefore = new Date(Date.now() - COMPARE_LEASE_MS);
    const claimed = await db('monitor_runs')
      .where({ id: run.id })
      .whereNull('compared_at')
      .andWhere((q) => void q.where({ compared: false }).orWhere('compare_claimed_at', '<', staleBefore))
      .update({ compared: true, compare_claimed_at: new Date() });
    if (Number(claimed) === 0) return;
    try {
      await this.compareClaimed(run);
    } catch (err) {
      // The run says so: before, a comparison that threw left it `finished`, unchanged (issue 25).
      if (!(err instanceof ComparisonError)) this.deps.log.error({ err, runId: run.id, screenshotId: run.screenshot_id }, 'a monitor comparison failed');
      const sentence = err instanceof ComparisonError ? err.message : 'The comparison with the previous shot failed';
      await db('monitor_runs').where({ id: run.id }).update({ error: sentence });
    } finally {
      await db('monitor_runs').where({ id: run.id }).update({ compared_at: new Date() });
    }
  }

  private async compareClaimed(run: RunToCompare): Promise<void> {
    const { db } = this.deps;
    const monitor = (await db('monitors').where({ id: run.monitor_id }).first()) as MonitorRow | undefined;
    const row = await screenshotToCompare(db, run.screenshot_id);
    // The viewport width and whether HTML was saved are the capture's, as its stored spec says.
    const shot = row && { ...row, html: row.capture_spec.html, screen_width: row.capture_spec.device.width };
    if (!monitor || shot?.status !== 'finished') return;
    const previousId = await previousFinishedRunShot(db, run.monitor_id, run.id);
    // The first finished shot has nothing to compare with.
    if (previousId === undefined) return;
    await db('monitor_runs').where({ id: run.id }).update({ previous_screenshot_id: previousId });

    const files = await db('screenshot_files')
      .whereIn('screenshot_id', [previousId, run.screenshot_id])
      .whereIn('kind', ['image', 'html'])
      .where((q) => void q.where({ shot: 1 }).orWhereNull('shot'))
      .select('screenshot_id', 'kind', 'storage_key');
    const key = (id: number, kind: string): string | undefined => files.find((f: { screenshot_id: unknown; kind: string }) => Number(f.screenshot_id) === id && f.kind === kind)?.storage_key;
    const beforeKey = key(previousId, 'image');
    const afterKey = key(run.screenshot_id, 'image');
    if (!beforeKey || !afterKey) return;
    const [before, after] = await Promise.all([readAll(this.deps.objects, beforeKey), readAll(this.deps.objects, afterKey)]);
    const diff = await diffImages(before, after, await this.masks(monitor, after, Number(shot.screen_width)));

    let text: TextChanges | null = null;
    const beforeHtml = key(previousId, 'html');
    const afterHtml = key(run.screenshot_id, 'html');
    if (shot.html && beforeHtml && afterHtml) {
      const [a, b] = await Promise.all([readAll(this.deps.objects, beforeHtml), readAll(this.deps.objects, afterHtml)]);
      text = textChanges(a.toString('utf8'), b.toString('utf8'));
    }
    const stored = await this.deps.objects.put(diffKey(run.screenshot_id), diff.png, { contentType: 'image/png', size: diff.png.length });
    await this.deps.records.recordComparison(run.screenshot_id, {
      changeRatio: diff.ratio,
      textChanges: text as Record<string, unknown> | null,
      diff: { key: diffKey(run.screenshot_id), contentType: 'image/png', size: stored.size ?? diff.png.length },
    });
    // The threshold is a percentage of the compared pixels; a change must be above it.
    const changed = diff.ratio * 100 > Number(monitor.threshold);
    if (!changed) return;
    await db('monitor_runs').where({ id: run.id }).update({ changed: true });
    await this.announce(monitor, run, previousId, diff.ratio, text);
  }

  /** The ignored boxes in the shot's pixels: boxes are given in CSS pixels, and a shot may be taken at a device scale. */
  private async masks(monitor: MonitorRow, after: Buffer, screenWidth: number): Promise<PixelBox[]> {
    const boxes = monitor.ignore.flatMap((r) => ('box' in r ? [r.box] : []));
    if (boxes.length === 0) return [];
    // From the header: sharp's metadata() refuses shots above its default pixel limit, which are compared.
    const { width } = await shotSize(after, 'new');
    const scale = screenWidth > 0 ? width / screenWidth : 1;
    return boxes.map((b) => ({ x: b.x * scale, y: b.y * scale, width: b.width * scale, height: b.height * scale }));
  }

  private async announce(monitor: MonitorRow, run: RunToCompare, previousId: number, ratio: number, text: TextChanges | null): Promise<void> {
    const { emitter, registry, records, imageLinks, diffLinks } = this.deps;
    const configIds = monitor.app_config_ids.map(Number);
    if (configIds.length === 0) return;
    await emitter.emit(Number(monitor.company_id), configIds, {
      type: 'monitor.changed',
      messageId: `msg_monitor_changed_${run.screenshot_id}`,
      data: {
        id: Number(monitor.id),
        url: monitor.url,
        status: 'changed',
        monitor: toMonitorRecord(monitor),
        run_id: Number(run.id),
        screenshot_id: run.screenshot_id,
        previous_screenshot_id: previousId,
        change_ratio: ratio,
        threshold: Number(monitor.threshold),
        before_url: imageLinks.url(previousId),
        after_url: imageLinks.url(run.screenshot_id),
        diff_url: diffLinks.url(run.screenshot_id),
        text_changes: text,
        created_at: new Date().toISOString(),
      },
    });
    // The apps that receive events got the event; the others run on the new screenshot (an upload, a message).
    const types: { id: number; type: string }[] = await this.deps.db('app_configs').whereIn('id', configIds).select('id', 'type');
    const runners = types.filter((c) => !registry.get(c.type)?.deliver).map((c) => Number(c.id));
    await records.addAppRuns(run.screenshot_id, runners);
  }
}
