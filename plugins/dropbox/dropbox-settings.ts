import { z } from 'zod';
import { MAX_TEMPLATE_LENGTH, validateTemplate } from '../../core/batch/filename-template.js';
import { secret } from '../secret-setting.js';

/**
 * The dropbox app's settings. Two ways to authenticate, exactly one of them:
 *  - `access_token`: a token generated in the Dropbox App Console. Dropbox issues only short-lived ones
 *    now (4 hours), so this suits a quick trial; once it expires every run fails until it is replaced.
 *  - `refresh_token` + `app_key` + `app_secret`: the long-lived form (OAuth code flow with
 *    `token_access_type=offline`). Each run gets a short-lived access token from it (cached until 5 minutes
 *    before it expires).
 * The app needs the `files.content.write` scope.
 */

/** What `path` renders to is documented on `path` below and in dropbox-path.ts. */
export const DEFAULT_DROPBOX_PATH = '/screenshots/{domain}/{id}';

const token = (what: string) => secret(z.string().trim().min(1, `${what} must not be empty`).max(4096));

const BOTH = 'give either access_token, or refresh_token with app_key and app_secret, not both';
const NEITHER = 'give access_token, or refresh_token with app_key and app_secret';

export const dropboxSettingsSchema = z
  .object({
    access_token: token('access_token').optional().describe('A Dropbox access token (App Console → Generate). Short-lived: prefer refresh_token.'),
    refresh_token: token('refresh_token').optional().describe('A Dropbox refresh token (offline access); needs app_key and app_secret.'),
    app_key: z.string().trim().min(1, 'app_key must not be empty').max(256).optional().describe('The Dropbox app key (client id), with refresh_token.'),
    app_secret: token('app_secret').optional().describe('The Dropbox app secret (client secret), with refresh_token.'),
    path: z
      .string()
      .trim()
      .max(MAX_TEMPLATE_LENGTH)
      .default(DEFAULT_DROPBOX_PATH)
      .superRefine((value, ctx) => {
        if (!value.startsWith('/')) ctx.addIssue({ code: 'custom', message: 'must start with / (a path in the Dropbox, such as /screenshots/{domain}/{id})' });
        const why = validateTemplate(value.slice(1));
        if (why) ctx.addIssue({ code: 'custom', message: why });
      })
      .describe(
        'Where each output goes, a template starting with /. The part before the last / is the folder; the last part names the file ' +
          "({id} is added when missing, then the extension). A batch's own filename replaces the file name, the folder stays. " +
          'Variables: {id} {domain} {shot} {browser} {country} {yyyy} {mm} {dd} {date} {random} {tags} {url}.',
      ),
    mode: z.enum(['add', 'overwrite']).default('add').describe('add (default): never replace a file, a different file of the same name is renamed "name (1).png"; overwrite: replace it.'),
  })
  .superRefine((s, ctx) => {
    const refreshFields = [s.refresh_token, s.app_key, s.app_secret];
    const anyRefresh = refreshFields.some((v) => v !== undefined);
    if (s.access_token !== undefined && anyRefresh) {
      ctx.addIssue({ code: 'custom', message: BOTH, path: ['access_token'] });
      return;
    }
    if (s.access_token !== undefined) return;
    if (!anyRefresh) {
      ctx.addIssue({ code: 'custom', message: NEITHER, path: ['access_token'] });
      return;
    }
    const missing = (['refresh_token', 'app_key', 'app_secret'] as const).filter((k) => s[k] === undefined);
    for (const key of missing) ctx.addIssue({ code: 'custom', message: `${key} is required: refresh_token, app_key and app_secret go together`, path: [key] });
  });

export type DropboxSettings = z.output<typeof dropboxSettingsSchema>;

/** The credentials of validated settings, in the shape the client takes. */
export type DropboxCredentials = { kind: 'access_token'; accessToken: string } | { kind: 'refresh_token'; refreshToken: string; appKey: string; appSecret: string };

export function credentialsOf(settings: DropboxSettings): DropboxCredentials {
  if (settings.access_token !== undefined) return { kind: 'access_token', accessToken: settings.access_token };
  // The schema guarantees the three together; this guards a caller that skipped it.
  if (settings.refresh_token === undefined || settings.app_key === undefined || settings.app_secret === undefined) throw new Error(NEITHER);
  return { kind: 'refresh_token', refreshToken: settings.refresh_token, appKey: settings.app_key, appSecret: settings.app_secret };
}
