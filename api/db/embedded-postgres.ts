import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite as PGliteClass } from '@electric-sql/pglite';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';

/**
 * Embedded Postgres (PGlite: Postgres compiled to WebAssembly) opened the way an idle `shotfarm serve`
 * should hold it. Two things decide its memory (make bench-idle, docs/performance.md "Idle memory"):
 *
 * - **initdb runs in a child process.** PGlite creates a fresh data folder with a second WebAssembly
 *   instance (initdb) in the same process: a second 189 MB linear memory and ~0.3 GB of buffers. They become
 *   garbage once the database is ready, but nothing makes V8 collect them (an idle process allocates
 *   nothing), and even after a collection the allocator kept ~160 MB: a fresh folder left the process at
 *   0.80 GB, an existing one at 0.29 GB. A child that creates the folder and exits gives all of it back.
 * - **shared_buffers 16 MB instead of Postgres' 128 MB.** Postgres initialises its whole buffer pool at
 *   start, so every megabyte of it is resident from the first second: 128 MB cost 133 MB of RSS. The
 *   embedded database is the one of a single small installation (tens of MB of records); pages beyond the
 *   pool are read back through the file system, which the operating system caches anyway.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * knex-pglite loads PGlite's CommonJS build: the same one here, so the process holds one copy of its code.
 * Typed from the ES build's declarations, which describe the same class.
 */
const { PGlite } = createRequire(import.meta.url)('@electric-sql/pglite') as { PGlite: typeof PGliteClass };

/**
 * PGlite on `dir` (in memory when null) with Postgres' start parameters: PGlite's own defaults
 * (single-user mode, no parallel workers…) and ours. Creates the data folder in this process if it is new.
 */
export function pgliteInThisProcess(dir: string | null): PGliteClass {
  // (PGlite ignores the options after an undefined folder: memory is named.)
  return new PGlite(dir ?? 'memory://', { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] });
}

/** The child's script (compiled beside this file). */
const INITDB_CHILD = fileURLToPath(new URL('./pglite-initdb-child.js', import.meta.url));
/**
 * initdb took 1–3 s on an idle 2-core machine and 28 s at load average 20; past this the start fails
 * with the child's output rather than waiting forever.
 */
const INITDB_TIMEOUT_MS = 300_000;

/** Whether `dir` holds a Postgres data folder already (initdb writes PG_VERSION; PGlite checks the same file). */
const initialised = (dir: string): boolean => fs.existsSync(path.join(dir, 'PG_VERSION'));

/** Creates the data folder `dir` in a child process that exits afterwards (see the top of this file). */
function initdbInChild(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [INITDB_CHILD, dir], { timeout: INITDB_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`creating the embedded database in ${dir} failed: ${String(error.message)}${stderr ? `\n${stderr}` : ''}`));
      else resolve();
    });
  });
}

/** The lock file of the folder `dir` (data-dir-lock.ts): beside it, so PGlite never sees a file it does not know. */
export const pgliteLockFile = (dir: string): string => `${path.resolve(dir)}.lock`;

/**
 * PGlite on the folder `dir` (created, with its database, on first use), or in memory when `dir` is null
 * (tests: a throwaway database, initialised in this process). The folder is locked for this process from
 * before initdb until the database closes; a folder another live process holds throws DataDirInUse.
 */
export async function openPglite(dir: string | null): Promise<PGliteClass> {
  if (dir === null) return pgliteInThisProcess(null);
  fs.mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  const lock = acquireDataDirLock(pgliteLockFile(dir));
  try {
    fs.mkdirSync(dir, { recursive: true });
    if (!initialised(dir)) await initdbInChild(dir);
    return releasedOnClose(pgliteInThisProcess(dir), lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** The lock goes when the database has closed (knex-pglite closes it on destroy()), even if closing fails. */
function releasedOnClose(db: PGliteClass, lock: DataDirLock): PGliteClass {
  const close = db.close.bind(db);
  db.close = async () => {
    try {
      await close();
    } finally {
      lock.release();
    }
  };
  return db;
}
