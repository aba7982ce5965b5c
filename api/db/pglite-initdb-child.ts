/**
 * A short-lived child process of api/db/embedded-postgres.ts: creates the embedded database's data folder
 * (argv[2]) with PGlite, closes it and exits, so the memory initdb used leaves with this process.
 */
import { pgliteInThisProcess } from './embedded-postgres.js';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: pglite-initdb-child.js <data folder>\n');
  process.exit(2);
}
const db = pgliteInThisProcess(dir);
await db.waitReady;
await db.close();
