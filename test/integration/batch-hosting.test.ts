import { expect } from 'chai';
import { Client } from 'minio';
import { startS3rver, S3RVER_CREDENTIALS, type RunningS3rver } from '../support/s3rver.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { appsSettled } from '../support/app-runs.js';

const ALLOWED = 'hosting-allowed';
const FREE = 'tenant-free';
const OWN = 'tenant-own';
const PUBLIC_S3_URL = 'https://files.example.test';

function clientOf(s3: RunningS3rver): Client {
  const url = new URL(s3.endpoint);
  return new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, ...S3RVER_CREDENTIALS, region: 'us-east-1', pathStyle: true });
}

async function keysIn(client: Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of client.listObjectsV2(bucket, '', true)) if (item.name) keys.push(item.name);
  return keys.sort();
}

/** Requests a server received for objects of `bucket` (path style: /bucket/key); the suite's own bucket creation is not one. */
const requestsFor = (s3: RunningS3rver, bucket: string) => s3.requests.filter((r) => r.url.startsWith(`/${bucket}/`));

/**
 * Batch hosting=s3 against two real S3 servers (s3rver) on loopback addresses the egress guard tells apart:
 * the operator's S3 (S3_ENDPOINT) on 127.0.0.2, which no app may reach on a user's say, and an "intranet"
 * S3 on 127.0.0.3 the operator allowlisted, standing for a tenant's own storage. The guard is on
 * (SHOTFARM_ALLOW_PRIVATE_TARGETS=false); the test site on 127.0.0.1 is allowlisted for the captures.
 */
describe('batch hosting=s3: only the buckets the operator offers, or the account’s own s3 configuration', function () {
  this.timeout(300_000);
  let api: TestApi;
  let site: TestSite;
  let operatorS3: RunningS3rver;
  let tenantS3: RunningS3rver;
  let acct: TestAccount;

  const batch = (fields: Record<string, string>, key = acct.key) => {
    const form = new FormData();
    form.append('file', new Blob([`${site.url('/target.html')}\n`]), 'urls.txt');
    for (const [k, v] of Object.entries({ hosting: 's3', ...fields })) form.append(k, v);
    return call(api.url, '/batch/create', { method: 'POST', key, body: form });
  };
  const createApp = (body: unknown) => call(api.url, '/app/create', { method: 'POST', key: acct.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const onlyScreenshotOf = async (batchId: number): Promise<number> =>
    Number(
      await api.database
        .db('screenshots')
        .where({ batch_id: batchId })
        .first('id')
        .then((r) => r.id),
    );

  before(async () => {
    site = await TestSite.start();
    operatorS3 = await startS3rver('127.0.0.2');
    tenantS3 = await startS3rver('127.0.0.3');
    for (const bucket of [ALLOWED, FREE]) await clientOf(operatorS3).makeBucket(bucket, 'us-east-1');
    await clientOf(tenantS3).makeBucket(OWN, 'us-east-1');
    api = await startTestApi(
      'pglite',
      {
        SHOTFARM_AGENT_BROWSERS: 'chrome',
        SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false',
        SHOTFARM_PRIVATE_TARGET_ALLOWLIST: `127.0.0.1,${new URL(tenantS3.endpoint).hostname}`,
        S3_ENDPOINT: operatorS3.endpoint,
        S3_ACCESS_KEY: S3RVER_CREDENTIALS.accessKey,
        S3_SECRET_KEY: S3RVER_CREDENTIALS.secretKey,
        S3_BUCKET: 'shotfarm-hosting-test',
        SHOTFARM_HOSTING_BUCKETS: ALLOWED,
        SHOTFARM_PUBLIC_S3_URL: PUBLIC_S3_URL,
        SHOTFARM_APP_MAX_ATTEMPTS: '1',
      },
      { agent: true },
    );
    acct = await api.account(1000);
  });
  after(async () => {
    await api?.stop();
    await operatorS3?.stop();
    await tenantS3?.stop();
    await site?.close();
  });

  it('refuses a bucket the tenant names freely with a 400 naming hosting_bucket: no batch, no configuration, not one request to that bucket', async () => {
    const configsBefore = Number((await api.database.db('app_configs').count('* as n'))[0]?.n);
    const res = await batch({ hosting_bucket: FREE, html: 'true' });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.success).to.equal(false);
    expect(res.body.fields).to.have.key('hosting_bucket');
    expect(res.body.fields.hosting_bucket[0]).to.include(FREE).and.include(ALLOWED);
    expect(Number((await api.database.db('batches').where({ company_id: acct.companyId }).count('* as n'))[0]?.n)).to.equal(0);
    expect(Number((await api.database.db('app_configs').count('* as n'))[0]?.n)).to.equal(configsBefore);
    expect(requestsFor(operatorS3, FREE)).to.deep.equal([]);
    expect(await keysIn(clientOf(operatorS3), FREE)).to.deep.equal([]);
  });

  it('refuses hosting_private=false while the operator has not allowed public-read (SHOTFARM_HOSTING_PUBLIC_READ)', async () => {
    const res = await batch({ hosting_bucket: ALLOWED, hosting_private: 'false' });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.fields).to.have.key('hosting_private');
  });

  it('uploads into an allowed bucket through the operator’s private endpoint: private, HTML as a download, output_url on SHOTFARM_PUBLIC_S3_URL, no credential stored', async () => {
    const created = await batch({ hosting_bucket: ALLOWED, html: 'true' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const batchId = created.body.data[0].id as number;
    const shot = await onlyScreenshotOf(batchId);
    const info = await appsSettled(api, acct.key, shot);
    const app = info.apps[0];
    expect(app, JSON.stringify(info.apps)).to.include({ type: 's3', status: 'finished', name: `Batch ${batchId} hosting` });

    const keys = await keysIn(clientOf(operatorS3), ALLOWED);
    expect(
      keys.some((k) => k.startsWith(`batch-${batchId}/`) && k.endsWith('.png')),
      keys.join(),
    ).to.equal(true);
    const htmlKey = keys.find((k) => k.endsWith('.html'));
    expect(htmlKey, keys.join()).to.be.a('string');
    const stat = await clientOf(operatorS3).statObject(ALLOWED, htmlKey as string);
    expect(stat.metaData['content-disposition']).to.equal('attachment');
    expect(stat.metaData['content-type']).to.match(/^text\/html/);
    // s3rver keeps no ACL: what the server received on each PUT is the object's ACL.
    const puts = requestsFor(operatorS3, ALLOWED).filter((r) => r.method === 'PUT');
    expect(puts.length).to.equal(keys.length);
    for (const put of puts) expect(put.headers['x-amz-acl']).to.equal('private');

    expect(app.output_url).to.equal(`${PUBLIC_S3_URL}/${ALLOWED}/${app.output_data.objects[0].key}`);
    expect(JSON.stringify(app)).not.to.include(new URL(operatorS3.endpoint).host);
    // The hidden configuration names where the files go; the service's keys stay in S3_* only.
    const hidden = await api.database
      .db('app_configs')
      .where({ app_id: `_hosting_batch_${batchId}` })
      .first('settings');
    expect(hidden.settings).to.deep.equal({ hosting: 'service', bucket: ALLOWED, acl: 'private', folder: `batch-${batchId}` });
  });

  it('hosts with the account’s own s3 configuration (its keys, its prefix, its endpoint behind the guard) when hosting_bucket names its bucket', async () => {
    const own = await createApp({
      app_id: 'own-storage',
      type: 's3',
      settings: { endpoint: tenantS3.endpoint, bucket: OWN, prefix: 'mine', access_key: S3RVER_CREDENTIALS.accessKey, secret_key: S3RVER_CREDENTIALS.secretKey },
    });
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    const created = await batch({ hosting_bucket: OWN });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const batchId = created.body.data[0].id as number;
    const info = await appsSettled(api, acct.key, await onlyScreenshotOf(batchId));
    expect(info.apps[0], JSON.stringify(info.apps)).to.include({ status: 'finished' });
    const keys = await keysIn(clientOf(tenantS3), OWN);
    expect(keys.length).to.be.greaterThan(0);
    for (const key of keys) expect(key.startsWith(`mine/batch-${batchId}/`), key).to.equal(true);
    // The tenant's own endpoint, so its own URL; nothing reached the operator's server for this bucket.
    expect(info.apps[0].output_url.startsWith(`${tenantS3.endpoint}/${OWN}/mine/batch-${batchId}/`)).to.equal(true);
    expect(requestsFor(operatorS3, OWN)).to.deep.equal([]);
    await call(api.url, `/app/delete?id=${own.body.data.id}`, { method: 'POST', key: acct.key });
  });

  it('refuses a tenant-given endpoint on a private address, even the operator’s own: the run ends in error and nothing reaches it', async () => {
    const sneaky = await createApp({
      app_id: 'sneaky-storage',
      type: 's3',
      settings: { endpoint: operatorS3.endpoint, bucket: FREE, access_key: S3RVER_CREDENTIALS.accessKey, secret_key: S3RVER_CREDENTIALS.secretKey },
    });
    expect(sneaky.status, JSON.stringify(sneaky.body)).to.equal(200);
    const created = await batch({ hosting_bucket: FREE });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const info = await appsSettled(api, acct.key, await onlyScreenshotOf(created.body.data[0].id));
    expect(info.apps[0].status).to.equal('error');
    expect(info.apps[0].error).to.match(/127\.0\.0\.2 is a loopback address: apps may not connect there/);
    expect(requestsFor(operatorS3, FREE)).to.deep.equal([]);
    expect(await keysIn(clientOf(operatorS3), FREE)).to.deep.equal([]);
  });
});
