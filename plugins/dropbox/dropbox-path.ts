import { renderFolderTemplate } from '../app-filename.js';
import type { AppFile, AppRunContext } from '../contract.js';

/**
 * Where one output goes in the Dropbox. The `path` setting (`/screenshots/{domain}/{id}`) is split at
 * its last `/`:
 *  - the FOLDER (`screenshots/{domain}`) is rendered with the filename variables and sanitised like the
 *    folders of a batch's filename template (core/batch/filename-template), without `{id}` being added;
 *    a folder that renders empty (`{tags}` without tags) is dropped;
 *  - the FILE NAME (`{id}`) is `ctx.filename(file, name)`: the run's own filename wins (a batch's
 *    template or CSV filename, which may add folders of its own), else this name, else `{id}-{domain}`
 *    when the setting ends in `/`; `{id}` is added when missing, images after the first get `-<shot>`,
 *    and the extension is appended.
 * The Dropbox path is `/` + folder + `/` + file name, so it always starts with `/` (for an "App folder"
 * app, Dropbox puts it under /Apps/<app name>). `/screenshots/{domain}/{id}` gives
 * `/screenshots/www.example.com/4242.png`; with a batch whose filename template is `{date}/{domain}`,
 * `/screenshots/www.example.com/2026-11-21/www.example.com-4242.png`. `{random}` differs between the
 * folder and the file name.
 */
export function dropboxPath(ctx: Pick<AppRunContext<unknown>, 'screenshot' | 'filename'>, file: AppFile, pathSetting: string): string {
  const { folder, name } = splitPathSetting(pathSetting);
  const renderedFolder = renderFolderTemplate(folder, ctx.screenshot, file);
  const fileName = ctx.filename(file, name === '' ? null : name);
  return `/${renderedFolder === '' ? '' : `${renderedFolder}/`}${fileName}`;
}

/** `/a/{domain}/{id}` → folder `a/{domain}`, name `{id}` (the leading `/` is dropped). */
export function splitPathSetting(pathSetting: string): { folder: string; name: string } {
  const inner = pathSetting.trim().replace(/^[/\\]+/, '');
  const cut = Math.max(inner.lastIndexOf('/'), inner.lastIndexOf('\\'));
  return cut < 0 ? { folder: '', name: inner } : { folder: inner.slice(0, cut), name: inner.slice(cut + 1) };
}
