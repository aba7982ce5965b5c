import fs from 'node:fs';
import path from 'node:path';

interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  [field: string]: unknown;
}
interface PackageJson {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  bin?: unknown;
  engines?: unknown;
  license?: string;
}

/**
 * The package-lock.json of an outside plugin project that depends on the packed shotfarm tarball (and on
 * zod, and on TypeScript and @types/node to compile), derived from shotfarm's own lock file: its production
 * packages at the versions and integrities it was tested with, laid out as npm hoists them under the
 * project. With it, `npm ci --offline` builds the tree from npm's cache alone (the cache holds the tarballs
 * of every locked package, but not the registry metadata a fresh resolution would ask for).
 */
export function pluginProjectLock(repoDir: string, tarballName: string, project: { name: string; dependencies: Record<string, string>; devDependencies: Record<string, string> }): unknown {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoDir, 'package.json'), 'utf8')) as PackageJson;
  const lock = JSON.parse(fs.readFileSync(path.join(repoDir, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const devWanted = new Set(Object.keys(project.devDependencies).map((name) => `node_modules/${name}`));
  const packages: Record<string, unknown> = {
    '': { name: project.name, version: '1.0.0', dependencies: project.dependencies, devDependencies: project.devDependencies },
    'node_modules/shotfarm': { version: pkg.version, resolved: `file:${tarballName}`, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  };
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === '') continue;
    // Dev-only packages of shotfarm are not installed with it; the project's own dev tools are.
    if (entry.dev && !devWanted.has(where)) continue;
    const { devOptional, ...rest } = entry;
    packages[where] = devOptional ? { ...rest, optional: true } : rest;
  }
  return { name: project.name, version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}
