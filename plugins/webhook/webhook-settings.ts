import { z } from 'zod';
import { APP_EVENT_TYPES } from '../contract.js';
import { secret } from '../secret-setting.js';

/**
 * A Standard Webhooks secret: `whsec_` then base64 of the key. 24 bytes (32 base64 characters) is the
 * smallest key Standard Webhooks' reference libraries generate; shorter keys make HMAC guessable.
 */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

export const webhookSettings = z.object({
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).max(2048).describe('Where events are POSTed.'),
  secret: secret(z.string().regex(WEBHOOK_SECRET, 'must be whsec_ followed by at least 24 bytes of base64')).describe('Signing secret (whsec_…): receivers verify webhook-signature with it.'),
  events: z.array(z.enum(APP_EVENT_TYPES as [string, ...string[]])).min(1).default([...APP_EVENT_TYPES]).describe('Events to deliver (default: all).'),
});

export type WebhookSettings = z.output<typeof webhookSettings>;
