import { expect } from 'chai';
import { Client } from 'minio';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { startS3rver, S3RVER_CREDENTIALS, type RunningS3rver } from '../support/s3rver.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';
import { appsSettled as settledApps, createScreenshot, storedObject } from '../support/app-runs.js';
import { shotKey } from '../../core/storage/storage-keys.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** 32 bytes of base64 after whsec_: the shortest secret the webhook app accepts. */
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const CUSTOMER_BUCKET = 'customer-shots';

async function readObject(client: Client, bucket: string, key: string): Promise<Buffer> {
  const stream = (await client.getObject(bucket, key)) as Readable;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('apps: configurations, runs, retries, events (embedded, real browser, s3rver)', function () {
  this.timeout(300_000);
  let api: TestApi;
  let site: TestSite;
  let s3: RunningS3rver;
  let s3Client: Client;
  let receiver: WebhookReceiver;
  let acct: TestAccount;

  const createApp = (key: string, body: unknown) => call(api.url, '/app/create', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const s3AppSettings = (extra: Record<string, unknown> = {}) => ({
    endpoint: s3.endpoint,
    bucket: CUSTOMER_BUCKET,
    access_key: S3RVER_CREDENTIALS.accessKey,
    secret_key: S3RVER_CREDENTIALS.secretKey,
    ...extra,
  });
  const screenshot = (key: string, query: string) => createScreenshot(api, key, query);
  const stored = (key: string): Promise<Buffer> => storedObject(api, key);
  const appsSettled = (key: string, id: number) => settledApps(api, key, id);

  before(async () => {
    site = await TestSite.start();
    s3 = await startS3rver();
    s3Client = new Client({ endPoint: '127.0.0.1', port: Number(new URL(s3.endpoint).port), useSSL: false, ...S3RVER_CREDENTIALS, region: 'us-east-1', pathStyle: true });
    await s3Client.makeBucket(CUSTOMER_BUCKET, 'us-east-1');
    receiver = await WebhookReceiver.start(SECRET);
    api = await startTestApi(
      'pglite',
      {
        SHOTFARM_AGENT_BROWSERS: 'chrome',
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY: S3RVER_CREDENTIALS.accessKey,
        S3_SECRET_KEY: S3RVER_CREDENTIALS.secretKey,
        S3_BUCKET: 'shotfarm-apps-test',
        // The bucket hosting=s3 may upload into with the service's credentials (batch-hosting.test.ts tests the refusals).
        SHOTFARM_HOSTING_BUCKETS: 'hosted-batches',
        // Quick retries keep the retry tests short: 50 ms, 100 ms, then the third attempt is the last.
        SHOTFARM_APP_MAX_ATTEMPTS: '3',
        SHOTFARM_APP_RETRY_SECONDS: '0.05',
        // The author's guide's example plugin, loaded as an operator would load any external plugin.
        SHOTFARM_PLUGINS: './dist/plugins/examples/webdav-app.js',
      },
      { agent: true },
    );
    acct = await api.account(1000);
  });
  after(async () => {
    await api?.stop();
    await receiver?.close();
    await s3?.stop();
    await site?.close();
  });

  describe('configurations', () => {
    it('GET /app/types lists the installed plugins with their settings as JSON Schema, secrets write-only', async () => {
      const res = await call(api.url, '/app/types', { key: acct.key });
      expect(res.status).to.equal(200);
      const types = res.body.data as any[];
      expect(types.map((t) => t.type)).to.include.members(['webhook', 's3']);
      const webhook = types.find((t) => t.type === 'webhook');
      expect(webhook.settings_schema.type).to.equal('object');
      expect(webhook.settings_schema.required).to.include.members(['url', 'secret']);
      expect(webhook.settings_schema.properties.secret.writeOnly).to.equal(true);
      expect(types.find((t) => t.type === 's3').uploads).to.equal(true);
    });

    it('creates, lists, reads, updates and deletes a configuration; secrets are encrypted at rest and masked in every answer', async () => {
      const created = await createApp(acct.key, { app_id: 'hooks-1', type: 'webhook', name: 'My hook', settings: { url: receiver.url, secret: SECRET } });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const app = created.body.data;
      expect(app).to.include({ app_id: 'hooks-1', type: 'webhook', name: 'My hook' });
      expect(app.settings).to.deep.equal({
        url: receiver.url,
        secret: '********',
        events: ['screenshot.finished', 'screenshot.failed', 'batch.finished', 'crawl.finished', 'app.upload.finished', 'app.upload.failed', 'monitor.changed'],
        format: 'standard',
      });
      expect(app.created_at).to.match(/^\d{4}-\d\d-\d\dT/);

      const stored = await api.database.db('app_configs').where({ id: app.id }).first('settings');
      expect(stored.settings.secret).to.match(/^enc:v1:/);
      expect(JSON.stringify(stored.settings)).not.to.include(SECRET.slice(6));

      expect((await call(api.url, '/app/list', { key: acct.key })).body.data.map((a: any) => a.id)).to.include(app.id);
      expect((await call(api.url, `/app/info?id=${app.id}`, { key: acct.key })).body.data.settings.secret).to.equal('********');

      // Sending the mask back (as a client editing what /app/info showed) keeps the secret.
      const updated = await call(api.url, `/app/update?id=${app.id}`, {
        method: 'POST',
        key: acct.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Renamed', settings: { url: receiver.url, secret: '********', events: ['batch.finished'] } }),
      });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect(updated.body.data).to.include({ name: 'Renamed' });
      expect(updated.body.data.settings.events).to.deep.equal(['batch.finished']);
      const after = await api.database.db('app_configs').where({ id: app.id }).first('settings');
      expect(after.settings.secret).to.match(/^enc:v1:/);

      const deleted = await call(api.url, `/app/delete?id=${app.id}`, { method: 'POST', key: acct.key });
      expect(deleted.status).to.equal(200);
      expect((await call(api.url, `/app/info?id=${app.id}`, { key: acct.key })).status).to.equal(404);
    });

    it('refuses bad settings with 400 fields named after the setting, and changes nothing', async () => {
      const before = await api.database.db('app_configs').count('* as n').first();
      const bad = await createApp(acct.key, { app_id: 'bad', type: 'webhook', settings: { url: 'ftp://x', secret: 'nope', extra: 1 } });
      expect(bad.status).to.equal(400);
      expect(bad.body.fields).to.have.keys('settings.url', 'settings.secret', 'settings');
      expect((await createApp(acct.key, { app_id: 'x', type: 'carrier-pigeon', settings: {} })).body.fields).to.have.key('type');
      // Found by the fuzz suite: a refinement ran on an empty endpoint and threw (a 500).
      const emptyEndpoint = await createApp(acct.key, { app_id: 's3-empty', type: 's3', settings: { endpoint: '' } });
      expect(emptyEndpoint.status).to.equal(400);
      expect(emptyEndpoint.body.fields).to.include.keys('settings.endpoint', 'settings.bucket');
      expect((await createApp(acct.key, { app_id: '_reserved', type: 'webhook', settings: { url: receiver.url, secret: SECRET } })).body.fields).to.have.key('app_id');
      expect((await call(api.url, '/app/create', { method: 'POST', key: acct.key, headers: { 'content-type': 'application/json' }, body: '[1,2]' })).status).to.equal(400);
      await createApp(acct.key, { app_id: 'twice', type: 'webhook', settings: { url: receiver.url, secret: SECRET } });
      const dup = await createApp(acct.key, { app_id: 'twice', type: 'webhook', settings: { url: receiver.url, secret: SECRET } });
      expect(dup.status).to.equal(400);
      expect(dup.body.fields.app_id[0]).to.include('already used');
      const afterCount = await api.database.db('app_configs').count('* as n').first();
      expect(Number(afterCount?.n)).to.equal(Number(before?.n) + 1);
    });

    it('another account cannot read, update or delete a configuration (404)', async () => {
      const other = await api.account(10);
      const mine = (await createApp(acct.key, { app_id: 'private-hook', type: 'webhook', settings: { url: receiver.url, secret: SECRET } })).body.data;
      expect((await call(api.url, `/app/info?id=${mine.id}`, { key: other.key })).status).to.equal(404);
      expect((await call(api.url, `/app/update?id=${mine.id}`, { method: 'POST', key: other.key, headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' })).status).to.equal(404);
      expect((await call(api.url, `/app/delete?id=${mine.id}`, { method: 'POST', key: other.key })).status).to.equal(404);
      expect((await call(api.url, '/app/list', { key: other.key })).body.data).to.deep.equal([]);
      // Nor can it run it: apps= names the account's own app ids only.
      expect((await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url('/echo'))}&apps=private-hook`, { key: other.key })).status).to.equal(400);
    });
  });

  describe('runs after a screenshot', () => {
    it('uploads the outputs to S3 and POSTs signed events; the record shows each app finished with its output', async () => {
      await createApp(acct.key, { app_id: 'store', type: 's3', settings: s3AppSettings({ path: 'shots/{domain}/{id}' }) });
      await createApp(acct.key, { app_id: 'notify', type: 'webhook', settings: { url: receiver.url, secret: SECRET } });
      const id = await screenshot(acct.key, `url=${encodeURIComponent(site.url('/echo?apps=1'))}&html=true&apps=store&apps=notify`);
      const info = await appsSettled(acct.key, id);
      expect(info.status).to.equal('finished');
      const store = info.apps.find((a: any) => a.app_id === 'store');
      const notify = info.apps.find((a: any) => a.app_id === 'notify');
      expect(store, JSON.stringify(info.apps)).to.include({ type: 's3', status: 'finished', error: '' });
      expect(store.output_url).to.equal(`${s3.endpoint}/${CUSTOMER_BUCKET}/shots/127.0.0.1/${id}.png`);
      expect(store.output_data.objects.map((o: any) => o.key)).to.deep.equal([`shots/127.0.0.1/${id}.png`, `shots/127.0.0.1/${id}.html`]);
      expect(notify).to.include({ type: 'webhook', status: 'finished', error: '' });

      // The bytes in the customer's bucket are the screenshot's own.
      const image = await stored(shotKey(id, 1));
      expect(image.length).to.be.above(1000);
      expect((await readObject(s3Client, CUSTOMER_BUCKET, `shots/127.0.0.1/${id}.png`)).equals(image)).to.equal(true);
      expect((await readObject(s3Client, CUSTOMER_BUCKET, `shots/127.0.0.1/${id}.html`)).toString()).to.include('echo');

      const finished = await until('screenshot.finished', async () => receiver.ofType('screenshot.finished').find((e) => e.data.id === id));
      expect(finished.verified).to.equal(true);
      expect(finished.data).to.include({ id, status: 'finished' });
      // The s3 upload's outcome reaches the webhook attached to the same screenshot.
      const upload = await until('app.upload.finished', async () => receiver.ofType('app.upload.finished').find((e) => e.data.id === id));
      expect(upload.verified).to.equal(true);
      expect(upload.data.apps.find((a: any) => a.app_id === 'store').status).to.equal('finished');
    });

    it('a failing app is retried with the same webhook-id, then ends error with the reason; the screenshot stays finished', async () => {
      await createApp(acct.key, { app_id: 'flaky', type: 'webhook', settings: { url: `${receiver.url}?flaky`, secret: SECRET } });
      const failing = new Set<string>();
      receiver.answer = (messageId) => (failing.has(messageId) || messageId.endsWith(`_${'pending'}`) ? 503 : 204);
      const id = await screenshot(acct.key, `url=${encodeURIComponent(site.url('/echo?flaky=1'))}&apps=flaky&cache=false`);
      failing.add(`msg_screenshot_finished_${id}`);
      const info = await appsSettled(acct.key, id);
      receiver.answer = () => 204;
      expect(info.status).to.equal('finished');
      const run = info.apps[0];
      expect(run.status).to.equal('error');
      expect(run.error).to.include('answered 503').and.include('gave up after 3 attempts');
      const attempts = receiver.requests.filter((r) => r.id === `msg_screenshot_finished_${id}`);
      expect(attempts.map((a) => a.status)).to.deep.equal([503, 503, 503]);
      const row = await api.database.db('app_runs').where({ screenshot_id: id }).first('attempts');
      expect(row.attempts).to.equal(3);
    });

    it('a refusal another attempt cannot change (401) ends error at once', async () => {
      await createApp(acct.key, { app_id: 'refused', type: 'webhook', settings: { url: `${receiver.url}?refused`, secret: SECRET } });
      const id = await screenshot(acct.key, `url=${encodeURIComponent(site.url('/echo?refused=1'))}&apps=refused`);
      receiver.answer = (messageId) => (messageId === `msg_screenshot_finished_${id}` ? 401 : 204);
      const info = await appsSettled(acct.key, id);
      receiver.answer = () => 204;
      expect(info.apps[0]).to.include({ status: 'error' });
      expect(info.apps[0].error).to.include('answered 401');
      expect(receiver.requests.filter((r) => r.id === `msg_screenshot_finished_${id}`)).to.have.length(1);
    });

    it('an upload app does not run for a failed screenshot; a webhook reports screenshot.failed', async () => {
      await createApp(acct.key, { app_id: 'store-2', type: 's3', settings: s3AppSettings() });
      await createApp(acct.key, { app_id: 'notify-2', type: 'webhook', settings: { url: receiver.url, secret: SECRET } });
      // Port 9 (discard) on loopback refuses connections: the capture fails.
      const id = await screenshot(acct.key, `url=${encodeURIComponent('http://127.0.0.1:9/nothing')}&apps=store-2&apps=notify-2`);
      const info = await appsSettled(acct.key, id);
      expect(info.status).to.equal('error');
      expect(info.apps.find((a: any) => a.app_id === 'store-2').error).to.include('the screenshot failed');
      const failed = await until('screenshot.failed', async () => receiver.ofType('screenshot.failed').find((e) => e.data.id === id));
      expect(failed.verified).to.equal(true);
    });
  });

  describe('external plugins and crawls', () => {
    it("runs a plugin loaded from SHOTFARM_PLUGINS (the guide's WebDAV example) after a screenshot", async () => {
      const received = new Map<string, Buffer>();
      const dav = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.set(String(req.url), Buffer.concat(chunks));
          res.writeHead(201).end();
        });
      });
      await new Promise<void>((resolve) => dav.listen(0, '127.0.0.1', resolve));
      try {
        expect((await call(api.url, '/app/types', { key: acct.key })).body.data.map((t: any) => t.type)).to.include('webdav');
        const base = `http://127.0.0.1:${(dav.address() as AddressInfo).port}/files/`;
        expect((await createApp(acct.key, { app_id: 'dav', type: 'webdav', settings: { base_url: base, path: 'shots/{id}' } })).status).to.equal(200);
        const id = await screenshot(acct.key, `url=${encodeURIComponent(site.url('/echo?dav=1'))}&apps=dav`);
        const info = await appsSettled(acct.key, id);
        expect(info.apps[0]).to.include({ type: 'webdav', status: 'finished', output_url: `${base}shots/${id}.png` });
        expect(received.get(`/files/shots/${id}.png`)?.equals(await stored(shotKey(id, 1)))).to.equal(true);
      } finally {
        await new Promise<void>((resolve) => dav.close(() => resolve()));
      }
    });

    it('sends crawl.finished to the webhooks its pages run', async () => {
      await createApp(acct.key, { app_id: 'crawl-hook', type: 'webhook', settings: { url: receiver.url, secret: SECRET, events: ['crawl.finished'] } });
      const created = await call(api.url, '/crawl/create', {
        method: 'POST',
        key: acct.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.url('/echo?crawl=1'), domain: '127.0.0.1', max_urls: 1, apps: ['crawl-hook'] }),
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const crawlId = created.body.data.id;
      const event = await until('crawl.finished', async () => receiver.ofType('crawl.finished').find((e) => e.data.id === crawlId));
      expect(event.verified).to.equal(true);
      expect(event.data).to.include({ id: crawlId, status: 'finished' });
      // The filter held: this webhook got no screenshot events.
      expect(receiver.events.filter((e) => e.type === 'screenshot.finished' && e.data.crawl_id === crawlId)).to.deep.equal([]);
    });
  });

  describe('batches', () => {
    it('runs the batch apps for each screenshot and sends batch.finished once', async () => {
      const hook = (await createApp(acct.key, { app_id: 'batch-hook', type: 'webhook', settings: { url: receiver.url, secret: SECRET, events: ['batch.finished', 'screenshot.finished'] } })).body.data;
      const form = new FormData();
      form.append('file', new Blob([`${site.url('/echo?b=1')}\n${site.url('/echo?b=2')}\n`]), 'urls.txt');
      form.append('apps', String(hook.id));
      const created = await call(api.url, '/batch/create', { method: 'POST', key: acct.key, body: form });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const batchId = created.body.data[0].id;
      const event = await until('batch.finished', async () => receiver.ofType('batch.finished').find((e) => e.data.id === batchId));
      expect(event.verified).to.equal(true);
      expect(event.data).to.include({ id: batchId, status: 'finished', count: 2, processed: 2 });
      const shots = (await api.database.db('screenshots').where({ batch_id: batchId }).pluck('id')).map(Number);
      await until('both screenshot.finished events', async () => shots.every((s) => receiver.ofType('screenshot.finished').some((e) => e.data.id === s)));
      expect(receiver.ofType('batch.finished').filter((e) => e.data.id === batchId)).to.have.length(1);
    });

    it('hosting=s3 uploads each screenshot with the service storage account, named by the template, and hides its configuration', async () => {
      await s3Client.makeBucket('hosted-batches', 'us-east-1');
      const form = new FormData();
      form.append('file', new Blob([`url,filename\n${site.url('/echo?h=1')},first\n${site.url('/echo?h=2')},\n`]), 'urls.csv');
      form.append('hosting', 's3');
      form.append('hosting_bucket', 'hosted-batches');
      form.append('filename_template', '{domain}-{id}');
      const created = await call(api.url, '/batch/create', { method: 'POST', key: acct.key, body: form });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data[0].zip_url, JSON.stringify(created.body)).to.equal('');
      const batchId = created.body.data[0].id;
      const shots = (await api.database.db('screenshots').where({ batch_id: batchId }).orderBy('id').pluck('id')).map(Number);
      const infos = await Promise.all(shots.map((s) => appsSettled(acct.key, s)));
      for (const info of infos) expect(info.apps[0], JSON.stringify(info.apps)).to.include({ type: 's3', status: 'finished', name: `Batch ${batchId} hosting` });
      const keys = [`batch-${batchId}/first-${shots[0]}.png`, `batch-${batchId}/127.0.0.1-${shots[1]}.png`];
      expect(infos.map((i) => i.apps[0].output_data.objects[0].key)).to.deep.equal(keys);
      // AppStatus.filename shows the per-request name each run used: the CSV cell, else the batch's template.
      expect(infos.map((i) => i.apps[0].filename)).to.deep.equal(['first', '{domain}-{id}']);
      for (const [i, key] of keys.entries()) {
        const image = await stored(shotKey(shots[i] as number, 1));
        expect((await readObject(s3Client, 'hosted-batches', key)).equals(image)).to.equal(true);
      }
      const listed = (await call(api.url, '/app/list?limit=100', { key: acct.key })).body.data;
      expect(listed.map((a: any) => a.app_id)).not.to.include(`_hosting_batch_${batchId}`);
      // The hidden configuration names the bucket; the service's credentials are read from S3_* when each run starts.
      const hidden = await api.database
        .db('app_configs')
        .where({ app_id: `_hosting_batch_${batchId}` })
        .first('settings');
      expect(hidden.settings).not.to.have.any.keys('access_key', 'secret_key');
    });
  });
});
