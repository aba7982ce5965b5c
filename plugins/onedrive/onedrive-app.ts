import { z } from 'zod';
import { validateTemplate } from '../../core/batch/filename-template.js';
import { AppRunError, defineAppPlugin, type AppEndpoints, type AppFile, type AppPlugin, type AppRunContext } from '../contract.js';
import { secret } from '../secret-setting.js';
import { drivePathProblem } from './drive-path.js';
import { renderFolderTemplate } from '../app-filename.js';
import { GraphCallError, GraphUploader, SIMPLE_UPLOAD_MAX_BYTES, type DriveItem, type DriveTarget } from './graph-upload.js';
import { TokenCache, type TokenCredentials } from './microsoft-token.js';
import { abortedError, graphHttpFailure } from './onedrive-errors.js';

/**
 * The `onedrive` app: uploads a screenshot's outputs to OneDrive or a SharePoint document library through
 * Microsoft Graph. Two ways to sign in:
 *  - app-only (`client_secret`, no `refresh_token`): client credentials of an app registration granted
 *    Files.ReadWrite.All / Sites.ReadWrite.All; there is no signed-in user, so `drive_id` or `user_id`
 *    says whose drive;
 *  - delegated (`refresh_token`, + `client_secret` for a confidential client): the user's own OneDrive
 *    (`/me/drive`) unless `drive_id` / `user_id` name another drive the user may write to.
 * Files go to `<drive_path>/<file name>`; the file name is the run's (a batch's filename wins, else the
 * `filename` template, else `{id}-{domain}`), with its extension.
 */

/** Tenants that name no directory: fine for a user's refresh token, not for app-only access. */
const MULTI_TENANT_ALIASES = new Set(['common', 'organizations', 'consumers']);

const templateProblem =
  (problem: (value: string) => string | null) =>
  (value: string, ctx: z.RefinementCtx): void => {
    const why = problem(value);
    if (why !== null) ctx.addIssue({ code: 'custom', message: why });
  };

export const oneDriveSettingsSchema = z
  .object({
    tenant: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,252}$/, 'must be a tenant id (GUID), a domain such as contoso.onmicrosoft.com, or common')
      .default('common')
      .describe('Directory (tenant) id or domain; "common" (the default) only works with a refresh_token'),
    client_id: z.string().trim().min(1).max(200).describe('Application (client) id of the app registration'),
    client_secret: secret(z.string().min(1).max(2048).describe('Client secret: alone, app-only access (needs drive_id or user_id); with a refresh_token, for a confidential client')).optional(),
    refresh_token: secret(z.string().min(1).max(16384).describe("Refresh token of a user who consented to Files.ReadWrite (delegated access: uploads to that user's OneDrive)")).optional(),
    drive_path: z
      .string()
      .max(1000)
      .default('')
      .superRefine(templateProblem(drivePathProblem))
      .describe("Folder in the drive, a template with the filename variables, e.g. Screenshots/{domain}; empty: the drive's root"),
    filename: z
      .string()
      .min(1)
      .max(1000)
      .superRefine(templateProblem(validateTemplate))
      .optional()
      .describe("File name template (default {id}-{domain}); a batch's filename template wins; the extension is added"),
    drive_id: z.string().trim().min(1).max(500).optional().describe("Upload to this drive (a SharePoint document library or someone's OneDrive) instead of the user's own"),
    user_id: z.string().trim().min(1).max(500).optional().describe("Upload to this user's OneDrive (object id or user principal name)"),
    conflict: z.enum(['rename', 'replace', 'fail']).default('rename').describe('When a file of that name exists: rename the new one (default), replace the old one, or fail'),
  })
  .superRefine((s, ctx) => {
    const delegated = s.refresh_token !== undefined;
    if (!delegated && s.client_secret === undefined) {
      ctx.addIssue({ code: 'custom', path: ['client_secret'], message: "set client_secret (app-only access) or refresh_token (delegated access to a user's drive)" });
    }
    if (s.drive_id !== undefined && s.user_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['user_id'], message: 'set drive_id or user_id, not both' });
    }
    if (!delegated && s.client_secret !== undefined) {
      if (s.drive_id === undefined && s.user_id === undefined) {
        ctx.addIssue({ code: 'custom', path: ['drive_id'], message: 'app-only access (client_secret without refresh_token) has no signed-in user: set drive_id or user_id to say whose drive' });
      }
      if (MULTI_TENANT_ALIASES.has(s.tenant.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: ['tenant'], message: `app-only access needs the tenant id or domain of the directory, not "${s.tenant}"` });
      }
    }
  });

export type OneDriveSettings = z.output<typeof oneDriveSettingsSchema>;

export interface OneDriveAppOptions {
  /** Files of at least this many bytes go through an upload session (default 4 MiB, Graph's simple-upload limit). */
  simpleUploadMaxBytes?: number;
  /** Upload session range size, a multiple of 320 KiB (default 10 × 320 KiB). */
  chunkBytes?: number;
}

export function createOneDriveApp(endpoints: Pick<AppEndpoints, 'microsoftGraphUrl' | 'microsoftLoginUrl'>, options: OneDriveAppOptions = {}): AppPlugin<typeof oneDriveSettingsSchema> {
  const { microsoftGraphUrl: graphUrl, microsoftLoginUrl: loginUrl } = endpoints;
  const simpleMax = options.simpleUploadMaxBytes ?? SIMPLE_UPLOAD_MAX_BYTES;
  const tokens = new TokenCache();

  return defineAppPlugin({
    type: 'onedrive',
    name: 'OneDrive / SharePoint',
    description: "Uploads the screenshot's files to a OneDrive or SharePoint folder through Microsoft Graph.",
    settingsSchema: oneDriveSettingsSchema,
    uploads: true,
    runsOnError: false,

    async run(ctx) {
      const { settings, signal } = ctx;
      if (signal.aborted) throw abortedError(signal);
      const credentials: TokenCredentials = {
        loginUrl,
        tenant: settings.tenant,
        clientId: settings.client_id,
        clientSecret: settings.client_secret,
        refreshToken: settings.refresh_token,
      };
      const target: DriveTarget = settings.drive_id !== undefined ? { kind: 'drive', id: settings.drive_id } : settings.user_id !== undefined ? { kind: 'user', id: settings.user_id } : { kind: 'me' };
      let auth = await tokens.get(credentials, signal);
      const uploader = new GraphUploader({ graphUrl, token: () => auth.token, target, conflict: settings.conflict, signal, chunkBytes: options.chunkBytes });

      const uploaded: { file: AppFile; item: DriveItem }[] = [];
      for (const file of ctx.files.list()) {
        const path = drivePathOf(ctx, file);
        const once = async (): Promise<DriveItem> =>
          file.size < simpleMax ? uploader.simpleUpload(path, await ctx.files.read(file), file.contentType) : uploader.sessionUpload(path, await ctx.files.stream(file), file.size);
        let item: DriveItem;
        try {
          try {
            item = await once();
          } catch (error) {
            // A cached token Graph no longer takes (revoked, permissions changed): one more try with a new one.
            if (!(error instanceof GraphCallError && error.status === 401 && !auth.fresh)) throw error;
            tokens.forget(credentials);
            auth = await tokens.get(credentials, signal);
            item = await once();
          }
        } catch (error) {
          if (error instanceof GraphCallError) throw graphHttpFailure(error.status, error.code, error.graphMessage, { what: `uploading ${path}`, conflict: settings.conflict }, error);
          if (signal.aborted && !(error instanceof AppRunError)) throw abortedError(signal);
          throw error;
        }
        ctx.log.info('onedrive: uploaded', { path, id: item.id, size: item.size });
        uploaded.push({ file, item });
      }

      const first = uploaded.find((u) => u.file.kind === 'image') ?? uploaded[0];
      return {
        ...(first?.item.webUrl ? { output_url: first.item.webUrl } : {}),
        output_data: { files: uploaded.map(({ item }) => ({ id: item.id, name: item.name, size: item.size, webUrl: item.webUrl })) },
      };
    },
  });
}

/** `<drive_path folder>/<the run's file name>`. */
function drivePathOf(ctx: AppRunContext<OneDriveSettings>, file: AppFile): string {
  const folder = renderFolderTemplate(ctx.settings.drive_path, ctx.screenshot, file);
  const name = ctx.filename(file, ctx.settings.filename ?? null);
  return folder === '' ? name : `${folder}/${name}`;
}
