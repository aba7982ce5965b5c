import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { connectDatabase } from '../../api/db/connect.js';
import { DataDirInUse } from '../../api/db/data-dir-lock.js';
import { CliProcesses, startedApiUrl } from '../support/cli-processes.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { call } from '../support/test-api.js';

/**
 * Issue 25 §5: `make run` in one terminal, `shotfarm users create --admin` in another. The embedded database
 * is held by the running `serve` alone; operator commands go through it (its loopback operator endpoint),
 * and the links they print are on the URL the service answers on.
 */
describe('shotfarm on the embedded database: one process holds it, operator commands go through the running serve', function () {
  this.timeout(180_000);
  let dataDir: string;
  let serve: ChildProcess;
  /** the service's base URL as its welcome line prints it */
  let origin: string;
  const env = (): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    SHOTFARM_DATA_DIR: dataDir,
    SHOTFARM_AGENT_BROWSERS: 'chrome',
    SHOTFARM_AGENT_SLOTS: '1',
  });
  const processes = new CliProcesses(env);
  // What an operator types in the other terminal: the same data folder, nothing else (no PORT: a guess would be 8080).
  const cli = (args: string[], extra: Record<string, string> = {}): Promise<CliRun> => runCli(args, { LOG_LEVEL: 'silent', SHOTFARM_DATA_DIR: dataDir, ...extra });
  const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-embedded-service-'));
    serve = processes.start(['serve']);
    origin = await startedApiUrl(serve, 120_000);
  });
  after(async () => {
    await processes.stopAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('users create --admin: the user exists in the running service, and its link on the service URL sets the password and logs the admin in', async () => {
    const res = await cli(['users', 'create', '--admin', '--email', 'First.Admin@Example.test']);
    expect(res.code, res.stderr).to.equal(0);
    const out = JSON.parse(res.stdout) as { email: string; roles: string[]; login_link: string };
    expect(out).to.deep.include({ email: 'first.admin@example.test', roles: ['user', 'admin'] });
    const link = new URL(out.login_link);
    expect(`${link.origin}${link.pathname}`, 'the URL the service answers on, not a guessed port').to.equal(`${origin}/reset-password`);

    const api = `${origin}/api/v1`;
    const reset = await call(api, '/auth/reset-password', json({ token: link.searchParams.get('token'), password: 'a long enough password' }));
    expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
    const login = await call(api, '/auth/login', json({ email: out.email, password: 'a long enough password' }));
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const nodes = await call(api, '/admin/nodes', { headers: { Authorization: `Bearer ${login.body.data.token}` } });
    expect(nodes.status, 'an admin of the running service').to.equal(200);

    const duplicate = await cli(['users', 'create', '--email', 'first.admin@example.test']);
    expect(duplicate).to.deep.include({ code: 1, stdout: '' });
    expect(duplicate.stderr).to.match(/^shotfarm: first\.admin@example\.test already has a user/);
    const invalid = await cli(['users', 'create', '--email', 'not-an-email']);
    expect(invalid).to.deep.include({ code: 2, stdout: '', stderr: 'shotfarm: "not-an-email" is not an email address\n' });
  });

  it('keys create, credits add, keys list, keys revoke and migrate act on the running service', async () => {
    const api = `${origin}/api/v1`;
    const created = await cli(['keys', 'create', '--credits', '40', '--name', 'ops']);
    expect(created.code, created.stderr).to.equal(0);
    const { key, company_id: companyId } = JSON.parse(created.stdout) as { key: string; company_id: number };
    const info = await call(api, '/account/info', { key });
    expect(info.status, 'the service knows the key').to.equal(200);

    const added = await cli(['credits', 'add', '--key', key, '--amount', '5', '--reason', 'goodwill']);
    expect(JSON.parse(added.stdout)).to.deep.equal({ company_id: companyId, balance: 45 });
    expect((await call(api, '/account/info', { key })).body.data.balance).to.equal(45);
    expect((await cli(['credits', 'add', '--company', '999999', '--amount', '5'])).code).to.equal(2);

    const listed = await cli(['keys', 'list', '--company', String(companyId)]);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; name: string });
    expect(rows.map((r) => r.name)).to.deep.equal(['ops']);
    const revoked = await cli(['keys', 'revoke', String(rows[0]?.id)]);
    expect(JSON.parse(revoked.stdout)).to.deep.equal({ revoked: rows[0]?.id, company_id: companyId });
    expect((await call(api, '/account/info', { key })).status, 'revoked in the service at once').to.equal(401);
    expect(await cli(['keys', 'revoke', String(rows[0]?.id)])).to.deep.include({ code: 1, stderr: `shotfarm: no live API key ${rows[0]?.id}\n` });

    expect(await cli(['migrate'])).to.deep.include({ code: 0, stdout: 'schema is up to date\n' });
  });

  it('the operator endpoint answers only the data folder secret; an input of the wrong type is a 400 naming the field', async () => {
    const service = JSON.parse(fs.readFileSync(path.join(dataDir, 'running-service.json'), 'utf8')) as { operator_url: string; pid: number };
    expect(service.pid).to.equal(serve.pid);
    expect(new URL(service.operator_url).hostname, 'loopback only').to.equal('127.0.0.1');
    const secret = fs.readFileSync(path.join(dataDir, 'operator-secret'), 'utf8').trim();
    const post = (name: string, body: unknown, auth?: string): Promise<Response> =>
      fetch(`${service.operator_url}/operator/${name}`, { ...json(body), headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: `Bearer ${auth}` } : {}) } });

    for (const auth of [undefined, 'not-the-secret', `${secret}x`]) {
      const res = await post('users.create', { email: 'sneaky@example.test', admin: true }, auth);
      expect(res.status, String(auth)).to.equal(401);
    }
    const wrongType = await post('credits.add', { company: '1', amount: 1.5, reason: 'x' }, secret);
    expect(wrongType.status).to.equal(400);
    expect(Object.keys(((await wrongType.json()) as { fields: Record<string, string[]> }).fields).sort()).to.deep.equal(['amount', 'company']);
    expect((await post('users.drop', {}, secret)).status).to.equal(404);
    const byName = await cli(['users', 'create', '--email', 'sneaky@example.test']);
    expect(byName.code, 'nothing was created by the refused calls').to.equal(0);
  });

  it('a second serve, and a direct open of the folder, are refused naming the serve that holds it; the serve keeps working', async () => {
    const second = await runCli(['serve'], { ...env(), PORT: '0' }, 90_000);
    expect(second.code, second.stderr).to.equal(1);
    expect(second.stderr).to.match(
      new RegExp(`^shotfarm: the embedded database ${escape(path.join(dataDir, 'pglite'))} is in use by process ${serve.pid} \\(shotfarm serve, since [^)]+\\): one process at a time may open it\\n$`),
    );
    const direct = await connectDatabase({ databaseUrl: null, dataDir }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(direct).to.be.instanceOf(DataDirInUse);
    expect((direct as DataDirInUse).holder).to.include({ pid: serve.pid, command: 'shotfarm serve' });
    expect((await fetch(`${origin}/readyz`)).status).to.equal(200);
  });

  it('once serve has stopped, the lock and its endpoint file are gone and commands open the folder themselves', async () => {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock')), 'lock released').to.equal(false);
    expect(fs.existsSync(path.join(dataDir, 'running-service.json')), 'endpoint withdrawn').to.equal(false);
    const res = await cli(['users', 'create', '--email', 'later@example.test'], { SHOTFARM_PUBLIC_URL: 'https://shots.example.test' });
    expect(res.code, res.stderr).to.equal(0);
    expect(new URL((JSON.parse(res.stdout) as { login_link: string }).login_link).origin).to.equal('https://shots.example.test');
    const db = await connectDatabase({ databaseUrl: null, dataDir });
    try {
      expect(await db('users').whereIn('email', ['first.admin@example.test', 'sneaky@example.test', 'later@example.test']).orderBy('email').pluck('email')).to.deep.equal([
        'first.admin@example.test',
        'later@example.test',
        'sneaky@example.test',
      ]);
    } finally {
      await db.destroy();
    }
  });
});

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
