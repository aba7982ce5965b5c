import { validateTemplate } from '../../core/batch/filename-template.js';
import { FOLDER_PLACEHOLDER } from '../app-filename.js';

/**
 * The `drive_path` setting: the folder (in the drive, under its root) the files go to, as a template with
 * the filename variables (`Screenshots/{domain}/{yyyy}-{mm}`). It is rendered and sanitised like a batch
 * filename (every segment; variable values never create folders) but names folders only: no `{id}` is
 * added and no extension is dropped (renderFolderTemplate). The file name inside it is the run's (AppRunContext.filename).
 */

/** Why the template cannot be used (unknown variable, control characters, too deep), or null. */
export function drivePathProblem(template: string): string | null {
  if (template.trim() === '') return null;
  return validateTemplate(`${template}/${FOLDER_PLACEHOLDER}`);
}
