import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import { MAX_TEMPLATE_LENGTH, validateTemplate } from '../../core/batch/filename-template.js';
import { secret } from '../secret-setting.js';

/**
 * The gdrive app's settings. Two ways to authenticate, exactly one of them:
 *  - `service_account_json`: the JSON key file of a Google Cloud service account (IAM → Service accounts →
 *    Keys → Add key → JSON), pasted whole. Share the target folder with the account's `client_email`.
 *    Service accounts have no Drive storage of their own, so the folder should be in a shared drive (set
 *    `supports_all_drives`) or owned by someone whose quota the files may use.
 *  - `client_id` + `client_secret` + `refresh_token`: an OAuth client of type "Desktop" or "Web" and a
 *    refresh token a user granted it with the `https://www.googleapis.com/auth/drive` scope (for instance
 *    through the OAuth Playground with "Use your own OAuth credentials"). Files belong to that user.
 * The token endpoint and the API root come from the service's configuration (SHOTFARM_GOOGLE_TOKEN_URL,
 * SHOTFARM_GDRIVE_API_URL), never from the settings: see gdrive-auth.ts for how the token URL is used.
 */

/** Drive file and folder IDs (and the alias `root`): letters, digits, `-` and `_`. */
const DRIVE_ID = /^[A-Za-z0-9_-]{1,200}$/;

const BOTH = 'give either service_account_json, or client_id with client_secret and refresh_token, not both';
const NEITHER = 'give service_account_json (a service account key), or client_id, client_secret and refresh_token (OAuth)';
const OAUTH_FIELDS = ['client_id', 'client_secret', 'refresh_token'] as const;

const token = (what: string) => secret(z.string().trim().min(1, `${what} must not be empty`).max(4096));

export const gdriveSettingsSchema = z
  .object({
    folder_id: z
      .string()
      .trim()
      .regex(DRIVE_ID, "must be a Drive folder ID: the last part of the folder's address, https://drive.google.com/drive/folders/<ID>")
      .optional()
      .describe('The ID of the Drive folder to upload into (the last part of its address, …/drive/folders/<ID>). Without it files go to the root of My Drive.'),
    service_account_json: secret(z.string().trim().min(1, 'service_account_json must not be empty').max(20_000))
      .optional()
      .describe('The JSON key file of a service account, pasted whole (client_email, private_key…). Share the folder with its client_email.'),
    client_id: z.string().trim().min(1, 'client_id must not be empty').max(512).optional().describe('The OAuth client ID, with client_secret and refresh_token.'),
    client_secret: token('client_secret').optional().describe('The OAuth client secret, with client_id and refresh_token.'),
    refresh_token: token('refresh_token').optional().describe('A refresh token granted to the OAuth client with the https://www.googleapis.com/auth/drive scope.'),
    path: z
      .string()
      .trim()
      .min(1, 'path must not be empty')
      .max(MAX_TEMPLATE_LENGTH)
      .superRefine((value, ctx) => {
        const why = validateTemplate(value);
        if (why) ctx.addIssue({ code: 'custom', message: why });
      })
      .optional()
      .describe(
        'How files are named, a template (default {id}-{domain}; {id} is added when missing, then the extension). Drive has no paths: ' +
          'a / in the rendered name becomes _, so {domain}/{date} names a file "www.example.com_2026-11-21-4242.png" in the folder. ' +
          "A batch's own filename wins. Variables: {id} {domain} {shot} {browser} {country} {yyyy} {mm} {dd} {date} {random} {tags} {url}.",
      ),
    supports_all_drives: z.boolean().default(false).describe('Set it when folder_id is in a shared drive (Drive answers "not found" otherwise).'),
  })
  .superRefine((s, ctx) => {
    const anyOauth = OAUTH_FIELDS.some((k) => s[k] !== undefined);
    if (s.service_account_json !== undefined && anyOauth) {
      ctx.addIssue({ code: 'custom', message: BOTH, path: ['service_account_json'] });
      return;
    }
    if (s.service_account_json !== undefined) {
      const key = parseServiceAccountKey(s.service_account_json);
      if (typeof key === 'string') ctx.addIssue({ code: 'custom', message: key, path: ['service_account_json'] });
      return;
    }
    if (!anyOauth) {
      ctx.addIssue({ code: 'custom', message: NEITHER, path: ['service_account_json'] });
      return;
    }
    for (const key of OAUTH_FIELDS.filter((k) => s[k] === undefined)) {
      ctx.addIssue({ code: 'custom', message: `${key} is required: client_id, client_secret and refresh_token go together`, path: [key] });
    }
  });

export type GdriveSettings = z.output<typeof gdriveSettingsSchema>;

/** What the app uses of a service account's JSON key file. */
export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  /** The key's own `token_uri`: NOT where tokens are requested (the configured URL is; see gdrive-auth.ts). */
  tokenUri?: string;
}

/** The credentials of validated settings. */
export type GdriveCredentials = { kind: 'service_account'; key: ServiceAccountKey } | { kind: 'oauth'; clientId: string; clientSecret: string; refreshToken: string };

/**
 * The service account key in `text`, or why it is not one (a message for the user: it never repeats the
 * key). Checks what a token request needs: JSON, `client_email`, and a `private_key` that is a PEM private key.
 */
export function parseServiceAccountKey(text: string): ServiceAccountKey | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'service_account_json is not JSON: paste the whole key file (it starts with {"type": "service_account", …)';
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'service_account_json must be a JSON object (the key file)';
  const o = json as Record<string, unknown>;
  if (o.type !== undefined && o.type !== 'service_account') {
    return `service_account_json has type "${String(o.type)}", not "service_account": for a user's credentials use client_id, client_secret and refresh_token`;
  }
  if (typeof o.client_email !== 'string' || o.client_email.trim() === '') return 'service_account_json has no client_email';
  if (typeof o.private_key !== 'string' || o.private_key.trim() === '') return 'service_account_json has no private_key';
  try {
    createPrivateKey(o.private_key);
  } catch {
    return 'the private_key of service_account_json is not a PEM private key';
  }
  return {
    clientEmail: o.client_email.trim(),
    privateKey: o.private_key,
    privateKeyId: typeof o.private_key_id === 'string' ? o.private_key_id : undefined,
    tokenUri: typeof o.token_uri === 'string' ? o.token_uri : undefined,
  };
}

export function credentialsOf(settings: GdriveSettings): GdriveCredentials {
  if (settings.service_account_json !== undefined) {
    const key = parseServiceAccountKey(settings.service_account_json);
    if (typeof key === 'string') throw new Error(key);
    return { kind: 'service_account', key };
  }
  // The schema guarantees the three together; this guards a caller that skipped it.
  if (settings.client_id === undefined || settings.client_secret === undefined || settings.refresh_token === undefined) throw new Error(NEITHER);
  return { kind: 'oauth', clientId: settings.client_id, clientSecret: settings.client_secret, refreshToken: settings.refresh_token };
}
