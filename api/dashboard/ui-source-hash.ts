import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Where the built dashboard records the hash of the sources it was built from. */
export const BUILD_INFO_FILE = 'build-info.json';

/** Every file under `dir` (sorted, so the hash does not depend on the file system's order), skipping tool caches. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/**
 * SHA-256 over the dashboard's sources (path and bytes of each file under `uiDir`). The Vite build writes it
 * into build-info.json, and a unit test compares it with the sources checked out: the built files are
 * committed (deploys need no build step), so a source change without a rebuild must fail a test.
 */
export function uiSourceHash(uiDir: string): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(uiDir)) {
    // Forward slashes: the same tree hashes the same on every platform.
    hash.update(relative(uiDir, file).split(sep).join('/')).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}
