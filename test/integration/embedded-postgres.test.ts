import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { connectDatabase } from '../../api/db/connect.js';
import { PGLITE_SHARED_BUFFERS } from '../../api/db/embedded-postgres.js';

/** connect.js, compiled beside this test's folder (dist/test/integration → dist/api/db). */
const CONNECT = fileURLToPath(new URL('../../api/db/connect.js', import.meta.url));

/**
 * In a fresh Node process: opens the embedded database on `dataDir` as `serve` does, runs a query, and
 * answers that process's external memory (WebAssembly memories and buffers live there), in bytes.
 */
function externalMemoryAfterOpening(dataDir: string): Promise<number> {
  const script = `
    const { connectDatabase } = await import(${JSON.stringify(CONNECT)});
    const db = await connectDatabase({ databaseUrl: null, dataDir: ${JSON.stringify(dataDir)} });
    await db.raw('select 1');
    process.stdout.write(String(process.memoryUsage().external));
    await db.destroy();`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(Number(stdout));
    });
  });
}

describe('embedded Postgres (PGlite) in a data folder', function () {
  // initdb takes seconds on an idle machine and up to ~30 s at load average 20.
  this.timeout(300_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-pglite-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('a new folder is created by a child process: the process that opens it holds one Postgres, not initdb too', async () => {
    const external = await externalMemoryAfterOpening(dataDir);
    // One PGlite holds ~147 MB here (its 128 MB WebAssembly memory and buffers); creating the folder in the
    // same process left ~630 MB (initdb's own memory and its buffers, never collected while idle).
    expect(external / 1024 / 1024, 'external memory, MB').to.be.within(50, 300);
    expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION')), 'the data folder was created').to.equal(true);
  });

  it('keeps its data across a reopen, with a small shared buffer pool', async () => {
    const first = await connectDatabase({ databaseUrl: null, dataDir });
    try {
      await first.raw('create table kept (v text)');
      await first('kept').insert({ v: 'still here' });
    } finally {
      await first.destroy();
    }
    const second = await connectDatabase({ databaseUrl: null, dataDir });
    try {
      expect(await second('kept').pluck('v')).to.deep.equal(['still here']);
      expect((await second.raw('show shared_buffers')).rows[0].shared_buffers).to.equal(PGLITE_SHARED_BUFFERS);
    } finally {
      await second.destroy();
    }
  });

  it('in memory (tests) too: the same small buffer pool', async () => {
    const db = await connectDatabase({ databaseUrl: null, pglite: 'memory' });
    try {
      expect((await db.raw('show shared_buffers')).rows[0].shared_buffers).to.equal(PGLITE_SHARED_BUFFERS);
    } finally {
      await db.destroy();
    }
  });
});
