import { drive, type drive_v3 } from '@googleapis/drive';
import { AppRunError, defineAppPlugin, type AppEndpoints, type AppFile, type AppPlugin, type AppRunContext } from '../contract.js';
import { openDriveSession } from './gdrive-auth.js';
import { OAUTH_ACCOUNT, toAppRunError, type ErrorContext } from './gdrive-errors.js';
import { credentialsOf, gdriveSettingsSchema, type GdriveSettings } from './gdrive-settings.js';

/**
 * The gdrive app: uploads every output of a finished screenshot (images, then HTML, PDF, video) into a
 * Google Drive folder, with the official client (@googleapis/drive, Drive API v3).
 *
 *  - Each output is one `files.create` with metadata and media: Drive's multipart upload
 *    (`POST <api>/upload/drive/v3/files?uploadType=multipart`, a multipart/related body holding the JSON
 *    metadata and the bytes). The bytes are streamed from the store (the client's multipart writer only
 *    takes streams for media). Multipart suits screenshots; Drive advises resumable uploads above 5 MB,
 *    which a long video may exceed: it still works, an interrupted one is simply retried whole.
 *  - Names: `ctx.filename(file, settings.path)` (the run's filename, else the `path` template, else
 *    `{id}-{domain}`, with `{id}` and the extension added). Drive has no paths, only folders by ID, so the
 *    rendered name is used whole as the file's name with every `/` replaced by `_`: `{domain}/{date}` gives
 *    a file named `www.example.com_2026-11-21-4242.png` in `folder_id`. No subfolders are created.
 *  - `folder_id` is the parent (none: the root of My Drive); `supports_all_drives` sends
 *    `supportsAllDrives=true`, which Drive requires for a folder in a shared drive.
 *  - The API root is SHOTFARM_GDRIVE_API_URL, given to `drive({rootUrl})` AND to each call: the client
 *    builds the upload URL from the call's `rootUrl` only (the global one is applied to the non-upload
 *    URL alone), so without the second an upload would still go to www.googleapis.com.
 *  - No retries inside the client (`retry: false`, and the auth client's interceptor for token requests):
 *    the runner retries the run. A retried run (attempt > 1) first looks for a file of the same name and
 *    size in the folder, and reuses it instead of uploading a duplicate (Drive allows several files with
 *    one name; names carry the screenshot's {id}, so a match is this screenshot's earlier upload).
 *  - Output: `output_url` is the webViewLink of the first image (else of the first file); `output_data`
 *    is `{files: [{id, name, size}]}` in upload order.
 * Authentication and the token URL are in gdrive-auth.ts; how failures are classified, in gdrive-errors.ts.
 */

type Settings = GdriveSettings;

export interface UploadedFile {
  id: string;
  name: string;
  size: number;
}

const FILE_FIELDS = 'id,name,webViewLink,size';

/** The Drive name for a rendered filename: Drive has no paths, so `/` (and `\`) become `_`. */
export function driveFileName(rendered: string): string {
  return rendered.replace(/[/\\]/g, '_');
}

/** Builds the app with the service's endpoints (SHOTFARM_GDRIVE_API_URL, SHOTFARM_GOOGLE_TOKEN_URL). */
export function createGdriveApp(endpoints: Pick<AppEndpoints, 'googleDriveApiUrl' | 'googleTokenUrl'>): AppPlugin<typeof gdriveSettingsSchema> {
  const rootUrl = `${endpoints.googleDriveApiUrl.replace(/\/+$/, '')}/`;
  const tokenUrl = endpoints.googleTokenUrl;

  return defineAppPlugin({
    type: 'gdrive',
    name: 'Google Drive',
    description: "Uploads the screenshot's files (images, HTML, PDF, video) to a Google Drive folder.",
    settingsSchema: gdriveSettingsSchema,
    uploads: true,
    runsOnError: false,
    async run(ctx) {
      ctx.signal.throwIfAborted();
      const { settings } = ctx;
      const credentials = credentialsOf(settings);
      const where: ErrorContext = {
        signal: ctx.signal,
        tokenUrl,
        account: credentials.kind === 'service_account' ? credentials.key.clientEmail : OAUTH_ACCOUNT,
        folderId: settings.folder_id,
        supportsAllDrives: settings.supports_all_drives,
        tokenFromCache: false,
        forgetToken: () => undefined,
      };

      let service: drive_v3.Drive;
      try {
        const session = await openDriveSession(credentials, tokenUrl, ctx.signal);
        where.tokenFromCache = session.fromCache;
        where.forgetToken = session.forget;
        service = drive({ version: 'v3', auth: session.client, rootUrl, retry: false });
      } catch (error) {
        throw toAppRunError(error, where);
      }

      const uploaded: (UploadedFile & { kind: AppFile['kind']; webViewLink: string | undefined })[] = [];
      for (const file of ctx.files.list()) {
        ctx.signal.throwIfAborted();
        const name = driveFileName(ctx.filename(file, settings.path ?? null));
        try {
          const existing = ctx.attempt > 1 ? await findEarlierUpload(service, ctx, file, name, rootUrl) : null;
          const result = existing ?? (await upload(service, ctx, file, name, rootUrl));
          uploaded.push({ kind: file.kind, id: result.id ?? '', name: result.name ?? name, size: Number(result.size ?? file.size), webViewLink: result.webViewLink ?? undefined });
          ctx.log.info(existing ? 'gdrive: reused the file an earlier attempt uploaded' : 'gdrive: uploaded', { name, id: result.id, size: file.size });
        } catch (error) {
          throw toAppRunError(error, where);
        }
      }

      const link = (uploaded.find((f) => f.kind === 'image') ?? uploaded[0])?.webViewLink;
      return {
        ...(link ? { output_url: link } : {}),
        output_data: { files: uploaded.map(({ id, name, size }) => ({ id, name, size })) },
      };
    },
  });
}

/** One multipart upload, the bytes streamed from the store. */
async function upload(service: drive_v3.Drive, ctx: AppRunContext<Settings>, file: AppFile, name: string, rootUrl: string): Promise<drive_v3.Schema$File> {
  const body = await ctx.files.stream(file);
  // The client pipes the stream into its multipart body without watching for errors: a store read that
  // fails would leave the request waiting. Abort it instead, and say why.
  const readFailed = new AbortController();
  body.once('error', (err) => readFailed.abort(err));
  try {
    const res = await service.files.create(
      {
        requestBody: { name, ...(ctx.settings.folder_id ? { parents: [ctx.settings.folder_id] } : {}) },
        media: { mimeType: file.contentType, body },
        fields: FILE_FIELDS,
        ...(ctx.settings.supports_all_drives ? { supportsAllDrives: true } : {}),
      },
      { signal: AbortSignal.any([ctx.signal, readFailed.signal]), rootUrl, retry: false },
    );
    return res.data;
  } catch (error) {
    if (readFailed.signal.aborted && !ctx.signal.aborted) {
      const reason: unknown = readFailed.signal.reason;
      throw new AppRunError(`could not read the ${file.kind} output from the store: ${reason instanceof Error ? reason.message : String(reason)}`, { retryable: true, cause: reason });
    }
    throw error;
  } finally {
    body.destroy();
  }
}

/** On a retry: the file an earlier attempt uploaded (same name and size, in the folder, not trashed), if any. */
async function findEarlierUpload(service: drive_v3.Drive, ctx: AppRunContext<Settings>, file: AppFile, name: string, rootUrl: string): Promise<drive_v3.Schema$File | null> {
  const parent = ctx.settings.folder_id ?? 'root';
  const res = await service.files.list(
    {
      q: `name = '${driveQueryString(name)}' and '${driveQueryString(parent)}' in parents and trashed = false`,
      fields: `files(${FILE_FIELDS})`,
      pageSize: 10,
      ...(ctx.settings.supports_all_drives ? { supportsAllDrives: true, includeItemsFromAllDrives: true } : {}),
    },
    { signal: ctx.signal, rootUrl, retry: false },
  );
  return res.data.files?.find((f) => f.name === name && Number(f.size) === file.size) ?? null;
}

/** A string literal of Drive's query language: `\` and `'` escaped with `\`. */
export function driveQueryString(value: string): string {
  return value.replace(/[\\']/g, (c) => `\\${c}`);
}
