import { expect } from 'chai';
import { cssLengthToPixels } from '../../api/screenshots/screenshot-record.js';
import { CREATE_PARAM_CASES, caseQuery } from '../support/create-param-cases.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

const MARGINS = ['pdf_margin', 'pdf_margin_top', 'pdf_margin_bottom', 'pdf_margin_left', 'pdf_margin_right'];

/** Asserts the spec's general error envelope and returns the body. */
function expectEnvelope(res: { status: number; body: any }, status: number, code: string): any {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.include({ success: false, code });
  expect(res.body.error).to.be.a('string').and.not.equal('');
  expect(res.body.details).to.be.an('object');
  expect(res.body.details.request_id).to.be.a('string').and.not.equal('');
  return res.body;
}

for (const kind of DATABASE_KINDS) {
  describe(`API contract on ${kind}`, function () {
    let api: TestApi;
    let acct: TestAccount;
    const count = async (companyId: number): Promise<number> => Number((await api.database.db('screenshots').where({ company_id: companyId }).count('* as n'))[0]?.n);

    before(async () => {
      api = await startTestApi(kind);
      acct = await api.account(100_000);
      await api.database.db('app_configs').insert({ company_id: acct.companyId, app_id: 'my-hook', type: 'webhook', name: 'My hook', settings: '{}' });
    });
    after(async () => api?.stop());

    describe('every parameter of /screenshot/create', () => {
      for (const c of CREATE_PARAM_CASES) {
        for (const pass of c.pass) {
          it(`accepts ${pass.query || '(defaults)'}`.slice(0, 120), async () => {
            const res = await call(api.url, `/screenshot/create?${caseQuery(pass)}`, { key: acct.key });
            expect(res.status, JSON.stringify(res.body)).to.equal(200);
            expect(res.body.success).to.equal(true);
            expect(res.body.data).to.have.length(pass.records ?? 1);
            const created = res.body.data[pass.at ?? 0];
            expect(created.status).to.equal('processing');
            expect(created.finished_at).to.equal('');
            // The create answer states margins in pixels; every other answer as CSS lengths.
            for (const m of MARGINS) expect(created[m]).to.be.a('number');
            const info = await call(api.url, `/screenshot/info?id=${created.id}`, { key: acct.key });
            expect(info.status).to.equal(200);
            for (const [key, want] of Object.entries(pass.expect)) {
              if (key === 'apps') {
                expect(info.body.data.apps).to.have.length((want as unknown[]).length);
                (want as object[]).forEach((w, i) => expect(info.body.data.apps[i]).to.include(w));
              } else if (want === undefined) {
                expect(info.body.data, key).to.not.have.property(key);
              } else {
                expect(info.body.data[key], key).to.deep.equal(want);
                if (MARGINS.includes(key)) expect(created[key]).to.equal(cssLengthToPixels(want as string));
              }
            }
          });
        }
        for (const fail of c.fail) {
          it(`refuses ${fail.query}`.slice(0, 120), async () => {
            const before = await count(acct.companyId);
            const res = await call(api.url, `/screenshot/create?${caseQuery(fail)}`, { key: acct.key });
            const body = expectEnvelope(res, 400, 'VALIDATION_ERROR');
            expect(body.fields, JSON.stringify(body.fields)).to.have.property(fail.field);
            expect(await count(acct.companyId)).to.equal(before);
          });
        }
      }
    });

    it('answers every required field of the record with its resolved value', async () => {
      const res = await call(api.url, '/screenshot/create?url=site.test&country=fr', { key: acct.key });
      const record = res.body.data[0];
      const required = [
        'id',
        'status',
        'url',
        'final_url',
        'cost',
        'country',
        'region',
        'language',
        'timezone',
        'geo_enable',
        'geo_latitude',
        'geo_longitude',
        'size',
        'cache',
        'delay',
        'screen_width',
        'screen_height',
        'max_height',
        'priority',
        'referer',
        'post_data',
        'cookie',
        'script',
        'header',
        'html',
        'pdf',
        'video',
        'pdf_background',
        'pdf_one_page',
        'pdf_landscape',
        'pdf_format',
        'pdf_margin',
        'pdf_margin_top',
        'pdf_margin_bottom',
        'pdf_margin_left',
        'pdf_margin_right',
        'video_format',
        'video_quality',
        'video_speed',
        'video_duration',
        'video_fps',
        'video_colors',
        'video_scale',
        'max_wait',
        'hide_popups',
        'hide_ads',
        'dark',
        'strict_ssl',
        'shots',
        'shot_interval',
        'target',
        'device_name',
        'device_scale',
        'device_touch',
        'device_landscape',
        'created_at',
        'finished_at',
        'tag',
        'trackers',
        'links',
      ];
      for (const f of required) expect(record, f).to.have.property(f);
      expect(record).to.not.have.property('error');
      expect(new Date(record.created_at).getTime()).to.be.closeTo(Date.now(), 60_000);
    });

    describe('credentials', () => {
      it('accepts the key query parameter, the X-API-KEY header and a Bearer JWT', async () => {
        expect((await call(api.url, `/account/info?key=${acct.key}`)).status).to.equal(200);
        expect((await call(api.url, '/account/info', { key: acct.key })).status).to.equal(200);
        const token = await api.userToken(acct.companyId);
        const res = await call(api.url, '/account/info', { headers: { Authorization: `Bearer ${token}` } });
        expect(res.status).to.equal(200);
        expect(res.body.data.company_id).to.equal(acct.companyId);
      });

      it('answers 401 INVALID_API_KEY with a request id for missing, wrong, tampered and expired credentials', async () => {
        expectEnvelope(await call(api.url, '/account/info'), 401, 'INVALID_API_KEY');
        expectEnvelope(await call(api.url, '/account/info?key=sf_not-a-real-key-at-all'), 401, 'INVALID_API_KEY');
        expectEnvelope(await call(api.url, '/screenshot/create?url=a.test', { key: 'wrong' }), 401, 'INVALID_API_KEY');
        const token = await api.userToken(acct.companyId);
        const [h, p, s] = token.split('.') as [string, string, string];
        const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
        const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, cid: claims.cid + 1 })).toString('base64url')}.${s}`;
        expectEnvelope(await call(api.url, '/account/info', { headers: { Authorization: `Bearer ${forged}` } }), 401, 'INVALID_API_KEY');
        const { JwtService } = await import('../../api/accounts/jwt.js');
        const expired = await new JwtService('test-secret-test-secret-test-secret-0123456789', -10).sign({ userId: Number(claims.sub), companyId: acct.companyId, impersonatedBy: null });
        expectEnvelope(await call(api.url, '/account/info', { headers: { Authorization: `Bearer ${expired}` } }), 401, 'INVALID_API_KEY');
        const foreign = await new JwtService('another-secret-another-secret-another-secret').sign({ userId: Number(claims.sub), companyId: acct.companyId, impersonatedBy: null });
        expectEnvelope(await call(api.url, '/account/info', { headers: { Authorization: `Bearer ${foreign}` } }), 401, 'INVALID_API_KEY');
      });

      it('checks the first credential given: an invalid header key is not rescued by a valid query key', async () => {
        expectEnvelope(await call(api.url, `/account/info?key=${acct.key}`, { key: 'sf_invalid-invalid-invalid' }), 401, 'INVALID_API_KEY');
      });
    });

    describe('error envelopes', () => {
      it('403 INSUFFICIENT_BALANCE with status "error", and nothing created', async () => {
        const poor = await api.account(2);
        const body = expectEnvelope(await call(api.url, '/screenshot/create?url=a.test&url=b.test&size=page', { key: poor.key }), 403, 'INSUFFICIENT_BALANCE');
        expect(body.status).to.equal('error');
        expect(await count(poor.companyId)).to.equal(0);
      });

      it('counts credits held by records still processing, and refuses an empty account', async () => {
        const small = await api.account(3);
        expect((await call(api.url, '/screenshot/create?url=a.test&shots=2', { key: small.key })).status).to.equal(200); // costs 2
        expectEnvelope(await call(api.url, '/screenshot/create?url=a.test&shots=2', { key: small.key }), 403, 'INSUFFICIENT_BALANCE');
        expect((await call(api.url, '/screenshot/create?url=a.test', { key: small.key })).status).to.equal(200); // costs 1
        const empty = await api.account(0);
        expectEnvelope(await call(api.url, '/screenshot/create?url=a.test', { key: empty.key }), 403, 'INSUFFICIENT_BALANCE');
      });

      it('404 for unknown records and unknown paths', async () => {
        expectEnvelope(await call(api.url, '/screenshot/info?id=999999999', { key: acct.key }), 404, 'NOT_FOUND');
        expectEnvelope(await call(api.url, '/no/such/operation', { key: acct.key }), 404, 'NOT_FOUND');
        expectEnvelope(await call(api.url, '/batch/cancel?id=424242', { method: 'POST', key: acct.key }), 404, 'NOT_FOUND');
      });

      it('413 for a body over the limit, read no further', async () => {
        const res = await call(api.url, '/batch/cancel', {
          method: 'POST',
          key: acct.key,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ id: 1, pad: 'x'.repeat(2 * 1024 * 1024) }),
        });
        expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
      });

      it('405 for a wrong method', async () => {
        expectEnvelope(await call(api.url, '/batch/cancel?id=1', { key: acct.key }), 405, 'METHOD_NOT_ALLOWED');
      });
    });

    describe('alternative encodings', () => {
      it('bracket notation, JSON values, comma lists and repeated keys in one request', async () => {
        const q = [
          'url=a.test',
          'url=b.test',
          'tag=x,y',
          'tag=z',
          'country=fr',
          'step[0][command]=click',
          'step[0][selector]=%23go',
          'step[1][command]=wait',
          'step[1][value]=1',
          `trackers=${encodeURIComponent(JSON.stringify([{ id: 't', selector: 'h1' }]))}`,
          'html=yes',
          'cache=true',
          `header=${encodeURIComponent('X-A: 1\nX-B: 2')}`,
        ].join('&');
        const res = await call(api.url, `/screenshot/create?${q}`, { key: acct.key });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data).to.have.length(2);
        expect(res.body.data[0]).to.deep.include({ tag: ['x', 'y', 'z'], html: true, cache: 86400, header: 'X-A: 1\nX-B: 2' });
        expect(res.body.data[0].steps).to.deep.equal([
          { command: 'click', selector: '#go' },
          { command: 'wait', value: '1' },
        ]);
        expect(res.body.data[0].trackers[0]).to.include({ id: 't', selector: 'h1' });
      });

      it('POST /batch/cancel takes the id in the query or in a JSON body', async () => {
        const [batch] = await api.database.db('batches').insert({ company_id: acct.companyId, name: 'b', count: 3 }).returning('id');
        const byBody = await call(api.url, '/batch/cancel', { method: 'POST', key: acct.key, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: Number(batch.id) }) });
        expect(byBody.status, JSON.stringify(byBody.body)).to.equal(200);
        expect(byBody.body.data).to.include({ id: Number(batch.id), status: 'error', error: 'Batch cancelled by the user', count: 3, processed: 0, failed: 0 });
        expect((await call(api.url, `/batch/cancel?id=${batch.id}`, { method: 'POST', key: acct.key })).body.data.status).to.equal('error');
        expectEnvelope(await call(api.url, '/batch/cancel?id=abc', { method: 'POST', key: acct.key }), 400, 'VALIDATION_ERROR');
        expectEnvelope(await call(api.url, '/batch/cancel', { method: 'POST', key: acct.key }), 400, 'VALIDATION_ERROR');
      });
    });

    describe('tenant isolation', () => {
      it("another account's ids answer 404 and change nothing", async () => {
        const other = await api.account(100);
        const created = await call(api.url, '/screenshot/create?url=private.test', { key: acct.key });
        const id = created.body.data[0].id;
        const [batch] = await api.database.db('batches').insert({ company_id: acct.companyId, name: 'mine', count: 1 }).returning('id');
        for (const path of [`/screenshot/info?id=${id}`, `/screenshot/thumbnail?id=${id}`, `/screenshot/delete?id=${id}`, `/screenshot/delete?id=${id}&data=url`]) {
          expectEnvelope(await call(api.url, path, { key: other.key }), 404, 'NOT_FOUND');
        }
        expectEnvelope(await call(api.url, `/batch/cancel?id=${batch.id}`, { method: 'POST', key: other.key }), 404, 'NOT_FOUND');
        const mine = await call(api.url, `/screenshot/info?id=${id}`, { key: acct.key });
        expect(mine.body.data.url).to.equal('https://private.test/');
        expect((await call(api.url, '/screenshot/list', { key: other.key })).body.data.map((r: { id: number }) => r.id)).to.not.include(id);
        expect((await call(api.url, '/screenshot/search?url=private', { key: other.key })).body.data).to.deep.equal([]);
        expect((await call(api.url, '/batch/list', { key: other.key })).body.data).to.deep.equal([]);
        expect((await api.database.db('batches').where({ id: batch.id }).first()).status).to.equal('processing');
      });
    });

    describe('info, list, search, delete, thumbnail, account, devices', () => {
      let acct2: TestAccount;
      let ids: number[];
      before(async () => {
        acct2 = await api.account(1000);
        const res = await call(api.url, '/screenshot/create?url=alpha.test/one&url=beta.test/two&url=alpha.test/100%25_off&tag=red&country=de', { key: acct2.key });
        ids = res.body.data.map((r: { id: number }) => r.id);
        await call(api.url, '/screenshot/create?url=gamma.test&tag=blue&country=fr', { key: acct2.key });
      });

      it('info adds has_html, has_pdf and has_video', async () => {
        const res = await call(api.url, `/screenshot/info?id=${ids[0]}`, { key: acct2.key });
        expect(res.body.data).to.include({ id: ids[0], has_html: false, has_pdf: false, has_video: false });
      });

      it('list pages newest first and filters by status, country and tag', async () => {
        const all = (await call(api.url, '/screenshot/list', { key: acct2.key })).body.data;
        expect(all.map((r: { id: number }) => r.id)).to.deep.equal([...all.map((r: { id: number }) => r.id)].sort((a, b) => b - a));
        expect(all).to.have.length(4);
        expect((await call(api.url, '/screenshot/list?limit=2&offset=1', { key: acct2.key })).body.data.map((r: { id: number }) => r.id)).to.deep.equal(
          all.slice(1, 3).map((r: { id: number }) => r.id),
        );
        expect((await call(api.url, '/screenshot/list?tag=red', { key: acct2.key })).body.data).to.have.length(3);
        expect((await call(api.url, '/screenshot/list?country=fr', { key: acct2.key })).body.data).to.have.length(1);
        expect((await call(api.url, '/screenshot/list?status=finished', { key: acct2.key })).body.data).to.have.length(0);
        expectEnvelope(await call(api.url, '/screenshot/list?limit=101', { key: acct2.key }), 400, 'VALIDATION_ERROR');
        expectEnvelope(await call(api.url, '/screenshot/list?status=done', { key: acct2.key }), 400, 'VALIDATION_ERROR');
        expectEnvelope(await call(api.url, '/screenshot/list?offset=-1', { key: acct2.key }), 400, 'VALIDATION_ERROR');
      });

      it('search matches url text case-insensitively, with % and _ taken literally', async () => {
        expect((await call(api.url, '/screenshot/search?url=ALPHA', { key: acct2.key })).body.data).to.have.length(2);
        expect((await call(api.url, '/screenshot/search?url=100%25_', { key: acct2.key })).body.data).to.have.length(1);
        expect((await call(api.url, '/screenshot/search?url=%25', { key: acct2.key })).body.data).to.have.length(1);
        expectEnvelope(await call(api.url, '/screenshot/search', { key: acct2.key }), 400, 'VALIDATION_ERROR');
      });

      it('delete scrubs url or metadata, or removes the record', async () => {
        const withMeta = (await call(api.url, `/screenshot/create?url=delta.test&cookie=a%3D1&post_data=x%3D1&header=X-A%3A%201`, { key: acct2.key })).body.data[0].id;
        let res = await call(api.url, `/screenshot/delete?id=${withMeta}&data=metadata`, { key: acct2.key });
        expect(res.body).to.deep.equal({ success: true, data: { id: withMeta, deleted: 'metadata' } });
        let info = (await call(api.url, `/screenshot/info?id=${withMeta}`, { key: acct2.key })).body.data;
        expect(info).to.include({ cookie: '', post_data: '', header: '', url: 'https://delta.test/' });
        const spec = (await api.database.db('screenshots').where({ id: withMeta }).first('capture_spec')).capture_spec;
        expect(spec).to.include({ postData: null });
        expect(spec.cookies).to.deep.equal([]);
        res = await call(api.url, `/screenshot/delete?id=${withMeta}&data=url`, { key: acct2.key });
        info = (await call(api.url, `/screenshot/info?id=${withMeta}`, { key: acct2.key })).body.data;
        expect(info.url).to.equal('');
        res = await call(api.url, `/screenshot/delete?id=${withMeta}`, { key: acct2.key });
        expect(res.body.data.deleted).to.equal('all');
        expectEnvelope(await call(api.url, `/screenshot/info?id=${withMeta}`, { key: acct2.key }), 404, 'NOT_FOUND');
        expectEnvelope(await call(api.url, `/screenshot/delete?id=${ids[0]}&data=everything`, { key: acct2.key }), 400, 'VALIDATION_ERROR');
      });

      it('thumbnail validates every parameter, then answers 404 while the screenshot is not ready', async () => {
        const bad = ['format=gif', 'width=0', 'height=10001', 'quality=101', 'ratio=stretch', 'scale=0', 'zoom=101', 'left=-1', 'shot=0', 'filename=a%0Db', 'filename=..%2Fx'];
        for (const b of bad) {
          const body = expectEnvelope(await call(api.url, `/screenshot/thumbnail?id=${ids[0]}&${b}`, { key: acct2.key }), 400, 'VALIDATION_ERROR');
          expect(Object.keys(body.fields)).to.have.length(1);
        }
        expectEnvelope(await call(api.url, '/screenshot/thumbnail', { key: acct2.key }), 400, 'VALIDATION_ERROR');
        expectEnvelope(await call(api.url, `/screenshot/thumbnail?id=${ids[0]}&format=webmp&width=200&ratio=fill&filename=shot.webp`, { key: acct2.key }), 404, 'NOT_FOUND');
      });

      it('account/info answers the balance and usage', async () => {
        const res = await call(api.url, '/account/info', { key: acct2.key });
        expect(res.body.data).to.include({ balance: 1000, company_id: acct2.companyId });
        expect(res.body.data.usage).to.include({ total_screenshots: 4, screenshots_this_month: 4, processing: 4 });
      });

      it("device/list answers at least 50 profiles in the spec's shape, usable as device_name", async () => {
        const res = await call(api.url, '/device/list', { key: acct2.key });
        expect(res.body.data.length).to.be.at.least(50);
        for (const d of res.body.data) {
          expect(d).to.have.all.keys('device_name', 'name', 'user_agent', 'screen_width', 'screen_height', 'device_scale', 'device_mobile', 'device_touch', 'device_landscape');
        }
        const ipad = res.body.data.find((d: { name: string }) => d.name === 'iPad Pro 11 landscape');
        const created = await call(api.url, `/screenshot/create?url=a.test&device_name=${ipad.device_name}`, { key: acct2.key });
        expect(created.body.data[0]).to.include({ screen_width: ipad.screen_width, screen_height: ipad.screen_height, device_landscape: true, user_agent: ipad.user_agent });
      });
    });

    describe('public routes', () => {
      it('healthz and readyz answer without credentials; readyz checks database, queue and storage', async () => {
        const base = api.url.replace(/\/api\/v1$/, '');
        expect((await call(base, '/healthz')).body).to.deep.equal({ status: 'ok' });
        const ready = await call(base, '/readyz');
        expect(ready.status).to.equal(200);
        expect(ready.body.checks).to.deep.equal({ database: true, queue: true, storage: true });
      });

      it('openapi.json documents every create parameter with its type and range', async () => {
        const doc = (await call(api.url, '/openapi.json')).body;
        const create = doc.paths['/screenshot/create'].get;
        const names = create.parameters.map((p: { name: string }) => p.name);
        for (const c of CREATE_PARAM_CASES) for (const p of c.params) if (!['tracker', 'step'].includes(p)) expect(names, p).to.include(p);
        const delay = create.parameters.find((p: { name: string }) => p.name === 'delay');
        expect(delay.schema).to.include({ type: 'integer', minimum: 0, maximum: 60 });
        expect(doc.paths['/screenshot/thumbnail'].get.parameters.find((p: { name: string }) => p.name === 'format').schema.enum).to.deep.equal(['png', 'jpeg', 'webp']);
      });
    });
  });
}

describe('HTTP limits', () => {
  let api: TestApi;
  let acct: TestAccount;
  before(async () => {
    api = await startTestApi('pglite');
    acct = await api.account(10);
  });
  after(async () => api?.stop());

  it('a request head over 512 KiB gets the envelope with 431, and the server keeps answering', async () => {
    const res = await call(api.url, `/screenshot/create?url=a.test&post_data=${'x'.repeat(600 * 1024)}`, { key: acct.key });
    expect(res.status).to.equal(431);
    expect(res.body).to.include({ success: false, code: 'REQUEST_TOO_LARGE' });
    expect((await call(api.url, '/account/info', { key: acct.key })).status).to.equal(200);
  });

  it('10,000 url parameters get a 400 naming url, and nothing is created', async () => {
    const urls = Array.from({ length: 10_000 }, (_, i) => `url=s${i}.test`).join('&');
    const res = await call(api.url, `/screenshot/create?${urls}`, { key: acct.key });
    expect(res.status).to.equal(400);
    expect(res.body.fields).to.have.property('url');
    expect((await call(api.url, '/screenshot/list', { key: acct.key })).body.data).to.deep.equal([]);
  });
});
