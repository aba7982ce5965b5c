import { Webhook } from 'standardwebhooks';
import { AppRunError, type AppEgress, type AppEvent, type AppOutput } from '../contract.js';
import { sendRequest } from '../http/send-request.js';
import { screenshotCenterMessage, type ImageFacts } from './screenshotcenter-message.js';
import type { WebhookSettings } from './webhook-settings.js';

/** Receivers' answers that another attempt may change: timeouts, too early, rate limited, server errors. */
const RETRYABLE_STATUS = new Set([408, 425, 429]);

/**
 * The Standard Webhooks message: body `{type, timestamp, data}`, headers webhook-id (stable across
 * retries, so receivers de-duplicate), webhook-timestamp (seconds, of THIS attempt: receivers refuse old
 * timestamps to stop replays) and webhook-signature (HMAC-SHA256 over `id.timestamp.body`, made by the
 * standardwebhooks package).
 */
function standardMessage(secret: string, event: AppEvent): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ type: event.type, timestamp: event.timestamp.toISOString(), data: event.data });
  const sentAt = new Date();
  return {
    body,
    headers: {
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(event.id, sentAt, body),
    },
  };
}

/** POSTs one event in the configuration's format (standard, or screenshotcenter for receivers of the original service). */
export async function deliverEvent(settings: WebhookSettings, event: AppEvent, net: { egress: AppEgress; signal: AbortSignal }, image: ImageFacts): Promise<AppOutput> {
  const message = settings.format === 'screenshotcenter' ? screenshotCenterMessage(settings.secret, event, image) : standardMessage(settings.secret, event);
  const url = new URL(settings.url);
  const response = await sendRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(message.body), 'user-agent': 'shotfarm-webhooks/1', ...message.headers },
    body: message.body,
    egress: net.egress,
    signal: net.signal,
  });
  if (response.status >= 200 && response.status < 300) {
    return { output_data: { event: event.type, webhook_id: event.id, status_code: response.status } };
  }
  const excerpt = response.body.slice(0, 200).replace(/\s+/g, ' ').trim();
  const why = `${url.host} answered ${response.status}${excerpt ? `: ${excerpt}` : ''}`;
  if (response.status >= 300 && response.status < 400) throw new AppRunError(`${why} (redirects are not followed: configure the final URL)`, { retryable: false });
  // Other 4xx: the receiver refused this message (bad signature setup, gone, wrong path); the same bytes get the same answer.
  throw new AppRunError(why, { retryable: response.status >= 500 || RETRYABLE_STATUS.has(response.status) });
}
