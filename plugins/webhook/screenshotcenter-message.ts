import { createHmac } from 'node:crypto';
import type { AppEvent } from '../contract.js';

/** What the record alone does not say: the signed image link and the image's pixel size, when known. */
export interface ImageFacts {
  imageUrl: string | null;
  width: number | null;
  height: number | null;
}

const asNumber = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const asString = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * A delivery as the original service sends it, so that a receiver written for it verifies and parses it
 * unchanged: a flat JSON body, `X-ScreenshotCenter-Event`, and `X-ScreenshotCenter-Signature:
 * sha256=<hex HMAC-SHA256 of the raw body>` keyed with the secret as it is (its help pages name the
 * header `X-Signature`: both are sent). Events about a batch or a crawl keep the same keys (no screenshot:
 * nulls) and add `batch_id` / `crawl_id`; their record is the `metadata`.
 */
export function screenshotCenterMessage(secret: string, event: AppEvent, image: ImageFacts): { body: string; headers: Record<string, string> } {
  const record = event.data;
  const about = event.type === 'batch.finished' ? 'batch' : event.type === 'crawl.finished' ? 'crawl' : event.type === 'monitor.changed' ? 'monitor' : 'screenshot';
  const payload =
    about === 'screenshot'
      ? {
          event: event.type,
          screenshot_id: asNumber(record.id),
          url: asString(record.url),
          status: asString(record.status),
          image_url: image.imageUrl,
          width: image.width ?? asNumber(record.screen_width),
          height: image.height ?? asNumber(record.screen_height),
          created_at: asString(record.created_at),
          metadata: {
            final_url: asString(record.final_url),
            error: asString(record.error),
            tag: Array.isArray(record.tag) ? record.tag : [],
            country: asString(record.country),
            browser: asString(record.browser),
            batch_id: record.batch_id ?? null,
            crawl_id: record.crawl_id ?? null,
          },
        }
      : {
          event: event.type,
          [`${about}_id`]: asNumber(record.id),
          screenshot_id: null,
          url: asString(record.start_url ?? record.url),
          status: asString(record.status),
          image_url: null,
          width: null,
          height: null,
          created_at: asString(record.created_at),
          metadata: record,
        };
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return {
    body,
    headers: {
      'x-screenshotcenter-event': event.type,
      'x-screenshotcenter-signature': signature,
      'x-signature': signature,
      // Stable across retries, so a receiver can de-duplicate (the Standard format's webhook-id).
      'x-screenshotcenter-delivery': event.id,
    },
  };
}
