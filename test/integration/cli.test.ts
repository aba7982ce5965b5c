import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { connectDatabase } from '../../api/db/connect.js';
import { createThrowawayPostgres } from '../support/databases.js';
import { freePort } from '../support/free-port.js';
import { CLI_PATH as CLI, runCli, type CliRun } from '../support/run-cli.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

/** The CLI with quiet logs and the given settings. */
const cli = (args: string[], env: Record<string, string>): Promise<CliRun> => runCli(args, { LOG_LEVEL: 'silent', ...env });

describe('shotfarm CLI', function () {
  this.timeout(120_000);
  let pgdb: { url: string; drop(): Promise<void> };
  let dataDir: string;
  before(async () => {
    pgdb = await createThrowawayPostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-cli-'));
  });
  after(async () => {
    await pgdb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrate, keys create --credits, credits add: on Postgres', async () => {
    const env = { DATABASE_URL: pgdb.url };
    expect((await cli(['migrate'], env)).stdout).to.match(/applied: 001-initial|up to date/);
    const created = await cli(['keys', 'create', '--credits', '250'], env);
    expect(created.code, created.stderr).to.equal(0);
    const { key, company_id: companyId, balance } = JSON.parse(created.stdout);
    expect(key).to.match(/^sf_/);
    expect(balance).to.equal(250);
    const added = await cli(['credits', 'add', '--key', key, '--amount', '50', '--reason', 'goodwill'], env);
    expect(JSON.parse(added.stdout)).to.deep.equal({ company_id: companyId, balance: 300 });
    const { default: knex } = await import('knex');
    const db = knex({ client: 'pg', connection: pgdb.url });
    try {
      const ledger = await db('credit_ledger').where({ company_id: companyId }).orderBy('id').select('delta', 'balance_after', 'reason');
      expect(ledger.map((l) => [Number(l.delta), Number(l.balance_after), l.reason])).to.deep.equal([
        [250, 250, 'cli: keys create'],
        [50, 300, 'goodwill'],
      ]);
    } finally {
      await db.destroy();
    }
    expect((await cli(['credits', 'add', '--company', '999999', '--amount', '5'], env)).code).to.equal(2);
    expect((await cli(['credits', 'add', '--amount', 'lots', '--company', String(companyId)], env)).code).to.not.equal(0);
  });

  it('refuses to start on an invalid setting, naming it', async () => {
    const res = await cli(['serve'], { PORT: 'eighty', SHOTFARM_DATA_DIR: dataDir });
    expect(res.code).to.equal(2);
    expect(res.stderr).to.match(/PORT: must be a whole number/);
  });

  it('serve starts the embedded service on PGlite, prints the URL and a curl line with a working key', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'serve'], { env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', SHOTFARM_DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const deadline = Date.now() + 60_000;
      while (!/curl '([^']+)'/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(out).to.include(`http://127.0.0.1:${port}`);
      const curlUrl = /curl '([^']+)'/.exec(out)?.[1] as string;
      const res = await fetch(curlUrl);
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { data: { status: string }[] };
      expect(body.data[0]?.status).to.equal('processing');
      expect(fs.statSync(path.join(dataDir, 'bootstrap-key')).mode & 0o777).to.equal(0o600);
    } finally {
      child.kill('SIGTERM');
      const code = await new Promise((r) => child.once('exit', r));
      expect(code).to.equal(0);
    }
  });

  /** `serve` on a data dir with a known key, chrome only, one slot, private targets allowed (the local test site). */
  function serveChild(dataDirectory: string, port: number, key: string): { child: ChildProcess; exited: Promise<number | null>; api: string } {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        SHOTFARM_DATA_DIR: dataDirectory,
        LOG_LEVEL: 'silent',
        SHOTFARM_BOOTSTRAP_KEY: key,
        SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true',
        SHOTFARM_AGENT_BROWSERS: 'chrome',
        SHOTFARM_AGENT_SLOTS: '1',
      },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, exited, api: `http://127.0.0.1:${port}/api/v1` };
  }

  async function ready(api: string): Promise<void> {
    await until('the service to be ready', async () => (await fetch(new URL('/readyz', api)).catch(() => null))?.status === 200);
  }

  /**
   * Creates a capture that stays in the browser for 3 s (its delay), and returns once the browser has asked the
   * site for the page: the capture is in flight then, so the service can be stopped meanwhile. (A fixed second
   * was too short on a loaded machine, where the browser had not started yet.)
   */
  async function createSlowCapture(api: string, key: string, site: TestSite): Promise<number> {
    const created = (await (await fetch(`${api}/screenshot/create?key=${key}&delay=3&url=${encodeURIComponent(site.url('/target.html'))}`)).json()) as { data: { id: number }[] };
    await until('the browser to load the page', async () => site.hits('/target.html') > 0);
    return created.data[0]!.id;
  }

  /** The record's status and error, and how many debits it has, read from the data dir's PGlite. */
  async function recordState(dataDirectory: string, id: number): Promise<{ record: unknown; debits: unknown }> {
    const db = await connectDatabase({ databaseUrl: null, dataDir: dataDirectory });
    try {
      return { record: await db('screenshots').where({ id }).first('status', 'error'), debits: await db('credit_ledger').where({ screenshot_id: id }).count({ n: '*' }).first() };
    } finally {
      await db.destroy();
    }
  }

  it('serve drains on SIGTERM: a capture in flight finishes and is recorded before the process exits', async () => {
    const site = await TestSite.start();
    const drainDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-cli-drain-'));
    const key = 'drain-test-key-0123456789';
    const { child, exited, api } = serveChild(drainDir, await freePort(), key);
    try {
      await ready(api);
      const id = await createSlowCapture(api, key, site);
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
      expect(await recordState(drainDir, id)).to.deep.equal({ record: { status: 'finished', error: '' }, debits: { n: 1 } });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      await site.close();
      fs.rmSync(drainDir, { recursive: true, force: true });
    }
  });

  it('serve killed (-9) mid-capture: the next start captures the record again, and it is charged once', async () => {
    const site = await TestSite.start();
    const killDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-cli-kill-'));
    const key = 'kill-test-key-0123456789';
    const port = await freePort();
    const first = serveChild(killDir, port, key);
    let second: ReturnType<typeof serveChild> | null = null;
    try {
      await ready(first.api);
      const id = await createSlowCapture(first.api, key, site);
      first.child.kill('SIGKILL');
      await first.exited;
      // Without the requeue the record would stay like this for ever, its credit held.
      expect(await recordState(killDir, id)).to.deep.equal({ record: { status: 'processing', error: '' }, debits: { n: 0 } });
      second = serveChild(killDir, port, key);
      await ready(second.api);
      const info = (await (await fetch(`${second.api}/screenshot/info?key=${key}&id=${id}&wait=30`)).json()) as { data: { status: string } };
      expect(info.data.status).to.equal('finished');
      second.child.kill('SIGTERM');
      expect(await second.exited).to.equal(0);
      expect(await recordState(killDir, id)).to.deep.equal({ record: { status: 'finished', error: '' }, debits: { n: 1 } });
    } finally {
      for (const run of [first, second]) {
        if (run && run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
        await run?.exited;
      }
      await site.close();
      fs.rmSync(killDir, { recursive: true, force: true });
    }
  });
});
