import { z } from 'zod';
import { APP_EVENT_TYPES } from '../contract.js';
import { secret } from '../secret-setting.js';

/**
 * A Standard Webhooks secret: `whsec_` then base64 of the key. 24 bytes (32 base64 characters) is the
 * smallest key Standard Webhooks' reference libraries generate; shorter keys make HMAC guessable.
 */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;
/**
 * A secret of the original service's format is the receiver's own text, used as the HMAC key as it is
 * (receivers call hmac(secret, body)); 16 characters is the floor that keeps it from being guessed.
 */
const MIN_TEXT_SECRET = 16;

/** `standard`: Standard Webhooks. `screenshotcenter`: what receivers written for the original service verify. */
export const WEBHOOK_FORMATS = ['standard', 'screenshotcenter'] as const;

export const webhookSettings = z
  .object({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .max(2048)
      .describe('Where events are POSTed.'),
    secret: secret(z.string().min(MIN_TEXT_SECRET).max(1024)).describe(
      'Signing secret. standard: whsec_… (receivers verify webhook-signature with it); screenshotcenter: the secret your receiver already checks X-ScreenshotCenter-Signature with (at least 16 characters).',
    ),
    events: z
      .array(z.enum(APP_EVENT_TYPES as [string, ...string[]]))
      .min(1)
      .default([...APP_EVENT_TYPES])
      .describe('Events to deliver (default: all).'),
    format: z
      .enum(WEBHOOK_FORMATS)
      .default('standard')
      .describe(
        "standard: Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature; body {type, timestamp, data}). screenshotcenter: the original service's deliveries (X-ScreenshotCenter-Event, X-ScreenshotCenter-Signature: sha256=<hex HMAC-SHA256 of the body>, X-Signature; flat body {event, screenshot_id, url, status, image_url, width, height, created_at, metadata}) for receivers written for it.",
      ),
  })
  .superRefine((s, ctx) => {
    if (s.format === 'standard' && !WEBHOOK_SECRET.test(s.secret)) {
      ctx.addIssue({ code: 'custom', path: ['secret'], message: 'must be whsec_ followed by at least 24 bytes of base64 (or set format to screenshotcenter to use your existing secret)' });
    }
  });

export type WebhookSettings = z.output<typeof webhookSettings>;
