import { DEFAULT_FILENAME_TEMPLATE, renderFilename, renderRowFilename, type FilenameVars } from '../core/batch/filename-template.js';
import type { AppFile, ScreenshotRecordData } from './contract.js';

/**
 * The path of one output for one app run (AppRunContext.filename): the run's own filename (a batch's
 * filename template, or the file's CSV `filename` cell, recorded on the run) wins over the app's path
 * template, which wins over the default `{id}-{domain}`. Each is rendered as a template: `{id}` is added
 * when missing (uploads into one folder must not overwrite each other, so unlike the ZIP a CSV name gets
 * it too), every segment is sanitised (core/batch/filename-template), and the extension is appended.
 * Images after the first get `-<shot>` when the template has no `{shot}`, so shots do not overwrite each other.
 */
export function appFilename(screenshot: ScreenshotRecordData, file: AppFile, runFilename: string, template?: string | null): string {
  const source = runFilename || template || DEFAULT_FILENAME_TEMPLATE;
  const base = renderFilename(source, filenameVarsOf(screenshot, file));
  const shotSuffix = file.kind === 'image' && file.shot !== null && file.shot > 1 && !source.includes('{shot}') ? `-${file.shot}` : '';
  return `${base}${shotSuffix}.${file.extension}`;
}

/** The filename variables of one output of a screenshot record. */
export function filenameVarsOf(screenshot: ScreenshotRecordData, file: AppFile): FilenameVars {
  const created = typeof screenshot.created_at === 'string' ? new Date(screenshot.created_at) : new Date();
  return {
    id: screenshot.id,
    url: screenshot.url,
    shot: file.shot,
    browser: typeof screenshot.browser === 'string' ? screenshot.browser : '',
    country: typeof screenshot.country === 'string' ? screenshot.country : '',
    tags: Array.isArray(screenshot.tag) ? screenshot.tag.map(String) : [],
    date: Number.isNaN(created.getTime()) ? new Date() : created,
  };
}

/**
 * A FOLDER template (an app's folder setting, e.g. `Screenshots/{domain}`), rendered and sanitised like
 * the folders of a filename template but with no `{id}` added: it is rendered with a placeholder file
 * segment after it, which is then dropped (rendered alone, a folder that comes out empty would be named
 * after the id). '' when it renders to nothing; never a leading or trailing `/`.
 */
export function renderFolderTemplate(template: string, screenshot: ScreenshotRecordData, file: AppFile): string {
  if (template.trim() === '') return '';
  const segments = renderRowFilename(`${template}/${FOLDER_PLACEHOLDER}`, filenameVarsOf(screenshot, file)).split('/');
  segments.pop();
  return segments.join('/');
}

/** The placeholder file segment of renderFolderTemplate: it keeps every segment of the template a folder. */
export const FOLDER_PLACEHOLDER = '_';
