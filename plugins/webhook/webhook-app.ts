import { defineAppPlugin, type AppEndpoints, type AppEventType, type AppPlugin } from '../contract.js';
import { deliverEvent } from './deliver-event.js';
import { webhookSettings } from './webhook-settings.js';

/**
 * `webhook`: POSTs signed events (Standard Webhooks). Attached to a screenshot it sends screenshot.finished
 * or screenshot.failed when the capture ends; the runner also gives it the batch.finished, crawl.finished
 * and app.upload.* events of the screenshots, batches and crawls it is attached to (`deliver`).
 */
export function createWebhookApp(_endpoints?: AppEndpoints): AppPlugin<typeof webhookSettings> {
  return defineAppPlugin({
    type: 'webhook',
    name: 'Webhook',
    description: 'POSTs signed JSON events (Standard Webhooks) to your URL when screenshots, batches, crawls and uploads finish or fail.',
    settingsSchema: webhookSettings,
    uploads: false,
    runsOnError: true,
    wantsEvent: (settings, type: AppEventType) => settings.events.includes(type),
    async run(ctx) {
      const type: AppEventType = ctx.screenshot.status === 'finished' ? 'screenshot.finished' : 'screenshot.failed';
      if (!ctx.settings.events.includes(type)) return { output_data: { event: type, skipped: 'not in this webhook\'s events' } };
      const event = { id: `msg_${type.replace('.', '_')}_${ctx.screenshot.id}`, type, timestamp: typeof ctx.screenshot.finished_at === 'string' ? new Date(ctx.screenshot.finished_at) : new Date(), data: ctx.screenshot };
      return deliverEvent(ctx.settings, event, ctx);
    },
    deliver: (ctx) => deliverEvent(ctx.settings, ctx.event, ctx),
  });
}
