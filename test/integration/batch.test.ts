import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { shotKey } from '../../core/storage/storage-keys.js';
import { runCli } from '../support/run-cli.js';
import { TestSite } from '../support/test-site.js';

interface ZipFile {
  name: string;
  data: Buffer;
}

/** Opens a ZIP with a real unzip library and returns every file in it. */
function unzip(buffer: Buffer): Promise<ZipFile[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files: ZipFile[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function createBatch(api: TestApi, key: string, form: Record<string, string>, file: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const body = new FormData();
  body.append('file', new Blob([file]), 'urls.csv');
  for (const [k, v] of Object.entries(form)) body.append(k, v);
  return call(api.url, '/batch/create', { method: 'POST', key, body, headers });
}

async function waitForBatch(api: TestApi, key: string, id: number, ms = 240_000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const info = (await call(api.url, `/batch/info?id=${id}`, { key })).body.data;
    if (info.status !== 'processing' || Date.now() > deadline) return info;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('batch jobs (embedded, real browser)', function () {
  this.timeout(400_000);
  let api: TestApi;
  let site: TestSite;
  let acct: TestAccount;
  // The delay each record captures with is its stored spec's (the record keeps no column per option).
  const screenshotsOf = async (batchId: number) =>
    (await api.database.db('screenshots').where({ batch_id: batchId }).select('id', 'status', 'cost', 'capture_spec', 'error')).map(({ capture_spec: spec, ...s }) => ({ ...s, delay: spec.delay }));

  before(async () => {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_BATCH_MAX_FILE_BYTES: '65536' }, { agent: true });
    acct = await api.account(10_000);
  });
  after(async () => {
    await api?.stop();
    await site?.close();
  });

  /** Enough URLs for every tenth to carry a CSV filename and the rest a template name; 40 keep CI's time (100 took 50 s). */
  const URLS = 40;
  it(`${URLS} URLs from a CSV with filenames, a template and thumbnails: every image in the ZIP decodes to the thumbnail size`, async () => {
    const rows = Array.from({ length: URLS }, (_, i) => `${site.url(`/echo?b=${i}`)},${i % 10 === 0 ? `special-${i}` : ''}`);
    const csv = ['url,filename', ...rows, '', '# a comment', 'not a url at all,', rows[1]].join('\n');
    const res = await createBatch(api, acct.key, { filename_template: '{domain}-{id}-{shot}', thumbnail_width: '200', thumbnail_format: 'jpeg', name: 'forty' }, csv);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const created = res.body.data[0];
    expect(created).to.include({ status: 'processing', count: URLS, processed: 0, failed: 0, name: 'forty' });
    // The header is line 1, the URLs follow, then an empty line and a comment: the invalid line comes after them.
    expect(created.invalid_lines.map((l: { line: number }) => l.line)).to.deep.equal([URLS + 4]);
    expect(created.zip_url).to.match(/\/api\/v1\/batch\/download\?id=\d+&token=/);

    const done = await waitForBatch(api, acct.key, created.id);
    expect(done).to.include({ status: 'finished', processed: URLS, failed: 0, count: URLS });
    expect(done.finished).to.be.at.least(done.started);
    expect(done.screenshots).to.have.length(URLS);

    // zip_url works without an API key.
    const zipRes = await fetch(created.zip_url);
    expect(zipRes.status).to.equal(200);
    expect(zipRes.headers.get('content-type')).to.equal('application/zip');
    const files = await unzip(Buffer.from(await zipRes.arrayBuffer()));
    expect(files).to.have.length(URLS);
    const names = files.map((f) => f.name);
    expect(new Set(names).size).to.equal(URLS);
    expect(names.filter((n) => /^special-\d+\.jpe?g$/.test(n))).to.have.length(URLS / 10);
    expect(names.filter((n) => /^127\.0\.0\.1-\d+-1\.jpe?g$/.test(n))).to.have.length(URLS - URLS / 10);
    for (const f of files) {
      const meta = await sharp(f.data).metadata();
      expect(meta, f.name).to.include({ format: 'jpeg', width: 200, height: 125 });
    }
  });

  it('a tampered or foreign zip_url answers 404; the authenticated download needs the account', async () => {
    const [batch] = await api.database.db('batches').where({ company_id: acct.companyId }).orderBy('id').limit(1).select('id');
    expect((await fetch(`${api.url}/batch/download?id=${batch.id}&token=forged`)).status).to.equal(404);
    const other = await api.account(10);
    expect((await call(api.url, `/batch/download?id=${batch.id}`, { key: other.key })).status).to.equal(404);
    expect((await call(api.url, `/batch/info?id=${batch.id}`, { key: other.key })).status).to.equal(404);
  });

  it('the same Idempotency-Key returns the original batch and creates nothing', async () => {
    const list = [site.url('/echo?idem=1'), site.url('/echo?idem=2')].join('\n');
    const first = await createBatch(api, acct.key, {}, list, { 'Idempotency-Key': 'order-42' });
    const second = await createBatch(api, acct.key, {}, list, { 'Idempotency-Key': 'order-42' });
    expect(second.body.data[0].id).to.equal(first.body.data[0].id);
    expect(await screenshotsOf(first.body.data[0].id)).to.have.length(2);
    const otherKey = await createBatch(api, acct.key, {}, list, { 'Idempotency-Key': 'order-43' });
    expect(otherKey.body.data[0].id).to.not.equal(first.body.data[0].id);
  });

  it('cancel mid-run drops the queued jobs: status error, counters kept, nothing more charged', async () => {
    // An account of its own: other tests' screenshots may still be finishing (and charging) meanwhile.
    const acct = await api.account(1000);
    const balanceBefore = (await call(api.url, '/account/info', { key: acct.key })).body.data.balance;
    const list = Array.from({ length: 40 }, (_, i) => site.url(`/echo?cancel=${i}`)).join('\n');
    const created = (await createBatch(api, acct.key, { delay: '1' }, list)).body.data[0];
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (await call(api.url, `/batch/info?id=${created.id}`, { key: acct.key })).body.data.processed < 3) await new Promise((r) => setTimeout(r, 200));
    const cancelled = (await call(api.url, `/batch/cancel?id=${created.id}`, { method: 'POST', key: acct.key })).body.data;
    expect(cancelled).to.include({ status: 'error', error: 'Batch cancelled by the user' });
    // Jobs already running when the cancel came may still finish; then nothing moves any more.
    await new Promise((r) => setTimeout(r, 8_000));
    const shots = await screenshotsOf(created.id);
    expect(shots.filter((s) => s.status === 'processing')).to.deep.equal([]);
    const finished = shots.filter((s) => s.status === 'finished');
    expect(finished.length).to.be.within(3, 12);
    const ledger = await api.database.db('credit_ledger').whereIn(
      'screenshot_id',
      shots.map((s) => s.id),
    );
    expect(ledger).to.have.length(finished.length);
    const balanceAfter = (await call(api.url, '/account/info', { key: acct.key })).body.data.balance;
    expect(balanceBefore - balanceAfter).to.equal(finished.reduce((sum, s) => sum + s.cost, 0));
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await call(api.url, '/account/info', { key: acct.key })).body.data.balance).to.equal(balanceAfter);
    // Jobs that were running at the cancel uploaded their image, but their records ended without it:
    // those files are deleted, and only finished records keep theirs.
    for (const s of shots) {
      const stored = await api.parts.objects.stat(shotKey(s.id, 1));
      expect(stored === null, `screenshot ${s.id} (${s.status})`).to.equal(s.status !== 'finished');
    }
  });

  it('refuses what it cannot do, creating nothing: 413 for a file over the limit, 403 for the balance, 400 for bad options', async () => {
    const count = async (): Promise<number> => Number((await api.database.db('batches').count('* as n'))[0]?.n);
    const before = await count();
    const big = Array.from({ length: 3000 }, (_, i) => site.url(`/echo?big=${i}`)).join('\n');
    const tooLarge = await createBatch(api, acct.key, {}, big);
    expect(tooLarge.status).to.equal(413);
    expect(tooLarge.body).to.include({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    const poor = await api.account(3);
    const broke = await createBatch(api, poor.key, {}, Array.from({ length: 10 }, (_, i) => site.url(`/echo?p=${i}`)).join('\n'));
    expect(broke.status).to.equal(403);
    expect(broke.body).to.include({ code: 'INSUFFICIENT_BALANCE', status: 'error' });
    const bad = await createBatch(api, acct.key, { filename_template: '{nope}', country: 'fr,de', browser: 'ie' }, site.url('/echo'));
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.body.fields).sort()).to.deep.equal(['browser', 'country', 'filename_template']);
    const empty = await createBatch(api, acct.key, {}, '# nothing here\n\n');
    expect(empty.status).to.equal(400);
    expect(empty.body.fields).to.have.property('file');
    expect(await count()).to.equal(before);
  });

  it('caps delay above 30 to 30 (and a batch cancelled before anything ran costs nothing)', async () => {
    const balance = (await call(api.url, '/account/info', { key: acct.key })).body.data.balance;
    // `+45` is 45 to the option's reader too: the cap must read it the same way.
    const created = (await createBatch(api, acct.key, { delay: '45' }, [site.url('/echo?cap=1'), site.url('/echo?cap=2')].join('\n'))).body.data[0];
    expect((await screenshotsOf(created.id)).map((s) => s.delay)).to.deep.equal([30, 30]);
    const signed = (await createBatch(api, acct.key, { delay: '+45' }, site.url('/echo?cap=3'))).body.data[0];
    expect((await screenshotsOf(signed.id)).map((s) => s.delay)).to.deep.equal([30]);
    await call(api.url, `/batch/cancel?id=${signed.id}`, { method: 'POST', key: acct.key });
    await call(api.url, `/batch/cancel?id=${created.id}`, { method: 'POST', key: acct.key });
    // Both were still waiting out their delay: they end as error at cost 0, and the balance is untouched.
    expect((await screenshotsOf(created.id)).map((s) => `${s.status} ${s.cost}`)).to.deep.equal(['error 0', 'error 0']);
    expect((await call(api.url, '/account/info', { key: acct.key })).body.data.balance).to.equal(balance);
  });

  it('shotfarm batch create --wait -o uploads the file, shows progress and writes the ZIP', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-batch-cli-'));
    try {
      const list = path.join(dir, 'urls.txt');
      fs.writeFileSync(list, `${site.url('/echo?cli=1')}\n${site.url('/echo?cli=2')}\nnot a url\n`);
      const zip = path.join(dir, 'out.zip');
      const base = api.url.replace(/\/api\/v1$/, '');
      const { code, stdout, stderr } = await runCli(['batch', 'create', list, '--api', base, '--key', acct.key, '-o', zip, '--thumbnail_width', '100'], {}, 180_000);
      expect(code, stderr).to.equal(0);
      expect(stdout).to.match(/batch \d+: 2 URL\(s\)/);
      expect(stdout).to.include('line 3 skipped');
      expect(stderr).to.match(/\[#+\] 2\/2 \(0 failed\)/);
      const files = await unzip(fs.readFileSync(zip));
      expect(files).to.have.length(2);
      for (const f of files) expect((await sharp(f.data).metadata()).width).to.equal(100);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes a JSON body with urls, and lists batches newest first', async () => {
    const res = await call(api.url, '/batch/create', {
      method: 'POST',
      key: acct.key,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ urls: [site.url('/echo?json=1')], html: true }),
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const id = res.body.data[0].id;
    expect(await waitForBatch(api, acct.key, id)).to.include({ status: 'finished', processed: 1 });
    const list = (await call(api.url, '/batch/list?limit=2', { key: acct.key })).body.data;
    expect(list[0].id).to.equal(id);
    const files = await unzip(Buffer.from(await (await fetch((await call(api.url, `/batch/info?id=${id}`, { key: acct.key })).body.data.zip_url)).arrayBuffer()));
    expect(files.map((f) => f.name.split('.').pop()).sort()).to.deep.equal(['html', 'png']);
  });
});
