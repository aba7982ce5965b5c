import { AppRunError, defineAppPlugin, type AppFile } from '../contract.js';
import { DropboxUploader, TokenCache, type DropboxEndpoints, type FetchFunction, type UploadLimits } from './dropbox-client.js';
import { toAppRunError } from './dropbox-errors.js';
import { dropboxPath } from './dropbox-path.js';
import { credentialsOf, dropboxSettingsSchema } from './dropbox-settings.js';

/**
 * The `dropbox` app: uploads every output of a finished screenshot (its images, then HTML, PDF, video)
 * to the user's Dropbox with the official SDK (`dropbox` v10), one file at a time.
 *
 *  - Settings: dropbox-settings.ts (access_token, or refresh_token + app_key + app_secret; `path`; `mode`).
 *  - Where files go: dropbox-path.ts (`/` + folder + ctx.filename(file, name)).
 *  - Base URLs: config `endpoints.dropboxApiUrl` (RPC and OAuth token) and `endpoints.dropboxContentUrl`
 *    (uploads); how the SDK is pointed at them: dropbox-client.ts.
 *  - Failures: dropbox-errors.ts (401 / 400 / 403 / most 409s not retryable; 429, 5xx, network retryable).
 *  - Retries are safe in `add` mode: Dropbox does not treat a file with the same name AND the same content
 *    as a conflict (strict_conflict is off), so a re-sent file keeps its name instead of becoming
 *    "name (1).png"; only a different file of that name is renamed. `overwrite` replaces it.
 *
 * Output: `output_url` is `https://www.dropbox.com/home<path>` of the first image (else the first file):
 * the file in Dropbox's web UI for apps with "Full Dropbox" access. For an "App folder" app the files are
 * under /Apps/<app name>/, which the API's paths (and so this link) leave out: `output_data` gives the exact
 * paths. `output_data`: `{files: [{kind, shot, path_display, id, size}]}`, in upload order.
 */

export interface DropboxAppOptions {
  /** Single-request and chunk sizes (tests make them small to exercise upload sessions). */
  limits?: UploadLimits;
  /** The fetch the SDK's requests go through after rewriting (default: the global fetch). */
  fetch?: FetchFunction;
}

export function createDropboxApp(endpoints: DropboxEndpoints, options: DropboxAppOptions = {}) {
  for (const key of ['dropboxApiUrl', 'dropboxContentUrl'] as const) {
    const protocol = (() => {
      try {
        return new URL(endpoints[key]).protocol;
      } catch {
        return null;
      }
    })();
    if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`endpoints.${key} must be an http(s) URL`);
  }
  const tokens = new TokenCache();

  return defineAppPlugin({
    type: 'dropbox',
    name: 'Dropbox',
    description: "Uploads the screenshot's outputs (images, HTML, PDF, video) to a folder of your Dropbox.",
    settingsSchema: dropboxSettingsSchema,
    uploads: true,
    runsOnError: false,

    async run(ctx) {
      const { settings, signal } = ctx;
      const uploader = new DropboxUploader({ endpoints, credentials: credentialsOf(settings), signal, tokens, limits: options.limits, fetchImpl: options.fetch });
      const outputs = ctx.files.list();
      if (outputs.length === 0) return { output_data: { files: [] } };
      await uploader.authenticate();

      const uploaded: { file: AppFile; path_display: string; id: string; size: number }[] = [];
      for (const file of outputs) {
        const path = dropboxPath(ctx, file, settings.path);
        try {
          signal.throwIfAborted();
        } catch (error) {
          throw toAppRunError(error, { request: null, path, signal });
        }
        const meta = await uploader.upload(path, { size: file.size, read: () => ctx.files.read(file), stream: () => ctx.files.stream(file) }, settings.mode);
        const pathDisplay = meta.path_display ?? path;
        ctx.log.info('uploaded to Dropbox', { path: pathDisplay, size: meta.size, kind: file.kind });
        uploaded.push({ file, path_display: pathDisplay, id: meta.id, size: meta.size });
      }

      const first = uploaded.find((u) => u.file.kind === 'image') ?? uploaded[0];
      if (!first) throw new AppRunError('nothing was uploaded to Dropbox', { retryable: true });
      return {
        output_url: dropboxWebUrl(first.path_display),
        output_data: { files: uploaded.map((u) => ({ kind: u.file.kind, shot: u.file.shot, path_display: u.path_display, id: u.id, size: u.size })) },
      };
    },
  });
}

/** `https://www.dropbox.com/home` + the path, each segment percent-encoded. */
export function dropboxWebUrl(pathDisplay: string): string {
  return `https://www.dropbox.com/home${pathDisplay
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/')}`;
}
