import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A path in the repository, found from this module's location: tests run from dist/, and tsc does not
 * copy fixtures there, so we walk up to the first folder that holds `relative`.
 */
export function repoPath(relative: string): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, relative))) return join(folder, relative);
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`${relative} not found above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
}
