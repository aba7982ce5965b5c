import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import { checkSettings } from '../../plugins/check-settings.js';
import type { AppEventType } from '../../plugins/contract.js';
import type { AppRegistry } from '../../plugins/registry.js';
import type { AppSettingsCodec } from './app-settings-codec.js';
import { appConfigsOfScreenshots } from '../screenshots/screenshot-reads.js';

/**
 * Queues events (batch.finished, crawl.finished, app.upload.*) for the event-receiving apps (plugins with
 * `deliver`: the webhook) among the given configurations, when their settings want that event type. The
 * message id names the event, so emitting the same event twice queues one delivery per configuration.
 */
export class AppEventEmitter {
  private wake: () => void = () => undefined;

  constructor(
    private readonly db: Db,
    private readonly registry: AppRegistry,
    private readonly codec: AppSettingsCodec,
    private readonly log: Logger,
  ) {}

  /** The runner calls this so that queued events start at once. */
  onQueued(wake: () => void): void {
    this.wake = wake;
  }

  async emit(companyId: number, configIds: readonly number[], event: { type: AppEventType; messageId: string; data: Record<string, unknown> }): Promise<number> {
    if (configIds.length === 0) return 0;
    const configs = await this.db('app_configs')
      .where({ company_id: companyId })
      .whereIn('id', [...new Set(configIds)])
      .select('id', 'type', 'settings');
    const rows: Record<string, unknown>[] = [];
    for (const config of configs) {
      const plugin = this.registry.get(config.type);
      if (!plugin?.deliver) continue;
      if (plugin.wantsEvent) {
        const checked = checkSettings(plugin, this.openOrNull(config.type, config.settings));
        // Settings that no longer parse still get the delivery: its run reports the problem on the event.
        if (checked.ok && !plugin.wantsEvent(checked.settings as never, event.type)) continue;
      }
      rows.push({ company_id: companyId, app_config_id: config.id, type: event.type, message_id: event.messageId, payload: JSON.stringify(event.data) });
    }
    if (rows.length === 0) return 0;
    await this.db('app_events').insert(rows).onConflict(['app_config_id', 'message_id']).ignore();
    this.log.debug({ type: event.type, deliveries: rows.length }, 'app events queued');
    this.wake();
    return rows.length;
  }

  /** Configurations attached (through runs) to any screenshot matching `where` (a batch's, a crawl's, one screenshot). */
  configsOfScreenshots(where: { batch_id?: number; crawl_id?: number; id?: number }): Promise<number[]> {
    return appConfigsOfScreenshots(this.db, where);
  }

  private openOrNull(type: string, settings: Record<string, unknown>): Record<string, unknown> | null {
    try {
      return this.codec.open(type, settings);
    } catch {
      return null;
    }
  }
}
