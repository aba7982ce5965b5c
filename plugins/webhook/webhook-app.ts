import { defineAppPlugin, type AppEndpoints, type AppEventType, type AppFiles, type AppPlugin } from '../contract.js';
import { deliverEvent } from './deliver-event.js';
import type { ImageFacts } from './screenshotcenter-message.js';
import { webhookSettings } from './webhook-settings.js';

/** A PNG's size is in its IHDR chunk: width and height, big-endian, at bytes 16-23 after the signature. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The first shot's pixel size (a full-page image is taller than the viewport), or nulls when it is not a PNG. */
async function firstImageSize(files: AppFiles): Promise<{ width: number | null; height: number | null }> {
  const image = files.list().find((f) => f.kind === 'image');
  if (!image || image.contentType !== 'image/png') return { width: null, height: null };
  // The first 24 bytes are enough: the stream is left as soon as they are in.
  const stream = await files.stream(image);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= 24) break;
    }
  } finally {
    stream.destroy();
  }
  const head = Buffer.concat(chunks).subarray(0, 24);
  if (head.length < 24 || !head.subarray(0, 8).equals(PNG_SIGNATURE)) return { width: null, height: null };
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

const NO_IMAGE: ImageFacts = { imageUrl: null, width: null, height: null };

/**
 * `webhook`: POSTs signed events (Standard Webhooks, or the original service's format). Attached to a
 * screenshot it sends screenshot.finished or screenshot.failed when the capture ends; the runner also gives
 * it the batch.finished, crawl.finished, monitor.changed and app.upload.* events of the screenshots, batches, crawls and monitors it is
 * attached to (`deliver`).
 */
export function createWebhookApp(_endpoints?: AppEndpoints): AppPlugin<typeof webhookSettings> {
  return defineAppPlugin({
    type: 'webhook',
    name: 'Webhook',
    description:
      'POSTs signed JSON events (Standard Webhooks, or the original ScreenshotCenter format) to your URL when screenshots, batches, crawls and uploads finish or fail, and when a monitored page changes.',
    settingsSchema: webhookSettings,
    uploads: false,
    runsOnError: true,
    wantsEvent: (settings, type: AppEventType) => settings.events.includes(type),
    async run(ctx) {
      const type: AppEventType = ctx.screenshot.status === 'finished' ? 'screenshot.finished' : 'screenshot.failed';
      if (!ctx.settings.events.includes(type)) return { output_data: { event: type, skipped: "not in this webhook's events" } };
      const event = {
        id: `msg_${type.replace('.', '_')}_${ctx.screenshot.id}`,
        type,
        timestamp: typeof ctx.screenshot.finished_at === 'string' ? new Date(ctx.screenshot.finished_at) : new Date(),
        data: ctx.screenshot,
      };
      // Only the original service's format carries the image's link and size.
      const image = ctx.settings.format === 'screenshotcenter' ? { imageUrl: ctx.imageUrl(), ...(await firstImageSize(ctx.files)) } : NO_IMAGE;
      return deliverEvent(ctx.settings, event, ctx, image);
    },
    deliver: (ctx) => deliverEvent(ctx.settings, ctx.event, ctx, ctx.settings.format === 'screenshotcenter' ? { ...NO_IMAGE, imageUrl: ctx.imageUrl() } : NO_IMAGE),
  });
}
