import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { PG_ADMIN_URL } from '../support/databases.js';
import { startTestApi } from '../support/test-api.js';

/** This process's throwaway test databases (their names carry its pid). */
async function ownDatabases(): Promise<string[]> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`shotfarm_test_${process.pid}_%`]);
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/**
 * A test API whose start throws part way (here the agent: an egress guard cannot front a Selenium Grid on
 * another machine) leaves nothing behind: no data folder for the suite's leak check to find, no database.
 */
describe('startTestApi when the start fails part way', function () {
  this.timeout(60_000);
  let tmp: string;
  let savedTmpdir: string | undefined;

  before(() => {
    // A temp folder of the test's own, so another run's folders on the machine do not count.
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-start-failure-'));
    savedTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
  });
  after(() => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('removes its data folder and drops its database before the error reaches the suite', async () => {
    const databasesBefore = await ownDatabases();
    // 192.0.2.1 is a documentation address: the agent refuses it before any connection is tried.
    const failure = await startTestApi('postgres', { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false', SHOTFARM_DRIVER: 'selenium', SELENIUM_GRID_URL: 'http://192.0.2.1:4444' }, { agent: true }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(String(failure)).to.match(/Selenium Grid on this machine/);
    expect(fs.readdirSync(tmp)).to.deep.equal([]);
    expect(await ownDatabases()).to.deep.equal(databasesBefore);
  });
});
