import { renderRowFilename, validateTemplate, type FilenameVars } from '../../core/batch/filename-template.js';
import type { AppFile, ScreenshotRecordData } from '../contract.js';

/**
 * The `drive_path` setting: the folder (in the drive, under its root) the files go to, as a template with
 * the filename variables (`Screenshots/{domain}/{yyyy}-{mm}`). It is rendered and sanitised like a batch
 * filename (every segment; variable values never create folders) but names folders only: no `{id}` is
 * added and no extension is dropped. The file name inside it is the run's (AppRunContext.filename).
 */

/**
 * A placeholder file segment the folder template is rendered with: a template ending in a folder
 * (`x/_`) keeps every segment a folder, and the renderer's own limit of MAX_FOLDERS folders applies.
 */
const FILE_PLACEHOLDER = '_';

/** Why the template cannot be used (unknown variable, control characters, too deep), or null. */
export function drivePathProblem(template: string): string | null {
  if (template.trim() === '') return null;
  return validateTemplate(`${template}/${FILE_PLACEHOLDER}`);
}

/** The folder for one output: `` for the drive's root, else `a/b` (no leading or trailing slash). */
export function renderDriveFolder(template: string, screenshot: ScreenshotRecordData, file: AppFile): string {
  if (template.trim() === '') return '';
  const rendered = renderRowFilename(`${template}/${FILE_PLACEHOLDER}`, varsOf(screenshot, file));
  const slash = rendered.lastIndexOf('/');
  return slash === -1 ? '' : rendered.slice(0, slash);
}

/** The same variables as the run's filenames (plugins/app-filename.ts). */
function varsOf(screenshot: ScreenshotRecordData, file: AppFile): FilenameVars {
  return {
    id: screenshot.id,
    url: screenshot.url,
    shot: file.shot,
    browser: typeof screenshot.browser === 'string' ? screenshot.browser : '',
    country: typeof screenshot.country === 'string' ? screenshot.country : '',
    tags: Array.isArray(screenshot.tag) ? screenshot.tag.map(String) : [],
    date: typeof screenshot.created_at === 'string' ? new Date(screenshot.created_at) : new Date(),
  };
}
