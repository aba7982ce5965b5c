import fs from 'node:fs';
import { expect } from 'chai';
import { runCli, type CliRun } from '../support/run-cli.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/** `shotfarm --version`, option checking, `keys list|revoke` and `users create`. */
describe('shotfarm CLI: version, unknown options, keys list/revoke, users create', function () {
  this.timeout(120_000);
  let api: TestApi;
  let site: TestSite;
  // The commands work on the test API's own database, so their effect shows through its HTTP API.
  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
    runCli(args, { LOG_LEVEL: 'silent', DATABASE_URL: api.database.url as string, SHOTFARM_DATA_DIR: api.config.dataDir, SHOTFARM_PUBLIC_URL: 'https://shots.example.test', ...env });
  before(async () => {
    api = await startTestApi('postgres');
    site = await TestSite.start();
  });
  after(async () => {
    await site?.close();
    await api?.stop();
  });

  it("--version prints package.json's version", async () => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    const res = await cli(['--version']);
    expect(res).to.deep.include({ code: 0, stdout: `${version}\n` });
  });

  it('capture refuses a create option the create table does not know, naming it and the one probably meant, before any browser work', async () => {
    const typo = await cli(['capture', site.url('/echo?typo=1'), '--sise', 'page', '--screenwidth', '800', '--frobnicate', '1', '--html'], { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true' });
    expect(typo.code).to.equal(2);
    expect(typo.stderr).to.equal(
      ["shotfarm: unknown option '--sise' (did you mean --size?)", "shotfarm: unknown option '--screenwidth' (did you mean --screen_width?)", "shotfarm: unknown option '--frobnicate'", ''].join('\n'),
    );
    expect(site.hits('/echo?typo=1'), 'nothing was captured').to.equal(0);
    // Commander's own options of other commands are checked too.
    const keys = await cli(['keys', 'create', '--credit', '5']);
    expect(keys.code).to.equal(1);
    expect(keys.stderr).to.match(/unknown option '--credit'\n\(Did you mean --credits\?\)/);
  });

  it("keys list shows an account's live keys without secrets; keys revoke stops one at once", async () => {
    const account = await api.account(10);
    const second = await cli(['keys', 'create', '--company', String(account.companyId), '--name', 'second']);
    expect(second.code, second.stderr).to.equal(0);
    const secondKey = JSON.parse(second.stdout).key as string;
    const listed = await cli(['keys', 'list', '--key', account.key]);
    expect(listed.code, listed.stderr).to.equal(0);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; name: string; prefix: string });
    expect(rows.map((r) => r.name)).to.deep.equal(['second', 'test']);
    expect(listed.stdout).to.not.include(secondKey).and.not.include(account.key);
    expect(secondKey.startsWith(rows[0]?.prefix as string)).to.equal(true);

    expect((await call(api.url, '/account/info', { key: secondKey })).status).to.equal(200);
    const revoked = await cli(['keys', 'revoke', String(rows[0]?.id)]);
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect(JSON.parse(revoked.stdout)).to.deep.equal({ revoked: rows[0]?.id, company_id: account.companyId });
    expect((await call(api.url, '/account/info', { key: secondKey })).status).to.equal(401);
    expect((await call(api.url, '/account/info', { key: account.key })).status, 'the other key still works').to.equal(200);
    expect((await cli(['keys', 'list', '--company', String(account.companyId)])).stdout.trim().split('\n')).to.have.length(1);

    const again = await cli(['keys', 'revoke', String(rows[0]?.id)]);
    expect(again).to.deep.include({ code: 1, stdout: '', stderr: `shotfarm: no live API key ${rows[0]?.id}\n` });
    expect((await cli(['keys', 'list', '--company', '99999999'])).code).to.equal(2);
  });

  it('users create --admin prints a one-time password link: it sets the password once, and the admin logs in and sees the admin API', async () => {
    const res = await cli(['users', 'create', '--admin', '--email', 'New.Admin@Example.test']);
    expect(res.code, res.stderr).to.equal(0);
    const out = JSON.parse(res.stdout) as { user_id: number; email: string; roles: string[]; login_link: string; expires_in_seconds: number };
    expect(out).to.deep.include({ email: 'new.admin@example.test', roles: ['user', 'admin'], expires_in_seconds: api.config.auth.resetTokenTtlSeconds });
    const link = new URL(out.login_link);
    expect(`${link.origin}${link.pathname}`).to.equal('https://shots.example.test/reset-password');
    const token = link.searchParams.get('token') as string;

    // No password yet: nobody can log in before the link is used.
    const before = await call(api.url, '/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: out.email, password: '' }) });
    expect(before.status).to.not.equal(200);
    const reset = await call(api.url, '/auth/reset-password', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, password: 'a long enough password' }) });
    expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
    const reused = await call(api.url, '/auth/reset-password', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, password: 'another long password' }) });
    expect(reused.status, 'the link works once').to.equal(400);
    const login = await call(api.url, '/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: out.email, password: 'a long enough password' }),
    });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const nodes = await call(api.url, '/admin/nodes', { headers: { Authorization: `Bearer ${login.body.data.token}` } });
    expect(nodes.status, 'an admin').to.equal(200);

    const duplicate = await cli(['users', 'create', '--email', 'new.admin@example.test']);
    expect(duplicate.code).to.equal(1);
    expect(duplicate.stderr).to.match(/already has a user/);
    const invalid = await cli(['users', 'create', '--email', 'not-an-email']);
    expect(invalid).to.deep.include({ code: 2, stdout: '' });
    const plain = JSON.parse((await cli(['users', 'create', '--email', 'plain@example.test'])).stdout) as { roles: string[] };
    expect(plain.roles).to.deep.equal(['user']);
  });
});
