import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ApiError } from '../../core/errors.js';
import { DEFAULT_PRICING } from '../../core/pricing.js';
import { buildCreateRequest } from '../../api/options/create-request.js';
import { CREATE_PARAM_NAMES } from '../../api/options/create-params.js';
import { parseQuery } from '../../api/options/query-input.js';
import { CREATE_PARAM_CASES, caseQuery } from '../support/create-param-cases.js';
import { DEFAULT_CAPTURE_LIMITS } from '../../core/contracts/browser-driver.js';

const ctx = { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 86400, maxCapturePixels: DEFAULT_CAPTURE_LIMITS.maxCapturePixels };
const build = (query: string) => buildCreateRequest(parseQuery(query), ctx);

function failureOf(query: string): Record<string, string[]> {
  try {
    build(query);
  } catch (err) {
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).status).to.equal(400);
    return (err as ApiError).extra.fields ?? {};
  }
  throw new Error(`expected a 400 for ${query}`);
}

/** The spec lives in ../shared beside the checkout (as CI lays it out). */
const SPEC_PATH = path.resolve('..', 'shared', 'spec', 'screenshot-api-v1.md');

/** The parameter names of the spec's create table, read from the spec itself. */
function specCreateParams(): string[] {
  const spec = fs.readFileSync(SPEC_PATH, 'utf8');
  const section = spec.split('### GET /screenshot/create')[1]?.split('Responses:')[0] ?? '';
  return section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| Name') && !l.startsWith('|---'))
    .flatMap((l) => (l.split('|')[1] ?? '').split(',').map((n) => n.trim()))
    .filter(Boolean);
}

describe('create request normalisation (unit, table-driven)', () => {
  it("the case table covers every row of the spec's create table, and the parameter table knows each", function () {
    if (!fs.existsSync(SPEC_PATH)) {
      console.warn(`  (skipped: ${SPEC_PATH} is not beside this checkout)`);
      this.skip();
    }
    const names = specCreateParams();
    expect(names.length).to.be.greaterThan(50);
    const covered = new Set(CREATE_PARAM_CASES.flatMap((c) => c.params));
    for (const name of names) {
      expect(covered.has(name), `test cases for ${name}`).to.equal(true);
      expect(CREATE_PARAM_NAMES.has(name), `parameter ${name}`).to.equal(true);
    }
  });

  for (const c of CREATE_PARAM_CASES) {
    describe(c.params.join(', '), () => {
      for (const pass of c.pass) {
        it(`accepts ${pass.query || '(defaults)'}`.slice(0, 150), () => {
          const request = build(caseQuery(pass));
          expect(request.drafts).to.have.length(pass.records ?? 1);
          const fields = (request.drafts[pass.at ?? 0] as (typeof request.drafts)[number]).fields as unknown as Record<string, unknown>;
          for (const [key, want] of Object.entries(pass.expect)) {
            if (key === 'apps') expect(request.apps).to.deep.equal((want as { app_id: string }[]).map((a) => a.app_id));
            else if (key === 'steps' && want === undefined) expect(fields.steps).to.deep.equal([]);
            else expect(fields[key], key).to.deep.equal(want);
          }
        });
      }
      for (const fail of c.fail.filter((f) => !f.needsAccount)) {
        it(`refuses ${fail.query}`.slice(0, 150), () => {
          const fields = failureOf(caseQuery(fail));
          expect(fields, JSON.stringify(fields)).to.have.property(fail.field);
          expect(fields[fail.field]?.[0]).to.be.a('string').and.not.equal('');
        });
      }
    });
  }

  it('requires url and names every bad parameter in one answer', () => {
    const fields = failureOf('delay=99&browser=ie');
    expect(Object.keys(fields).sort()).to.deep.equal(['browser', 'delay', 'url']);
  });

  it('builds one record per url × country, each with its own CaptureSpec and cache key', () => {
    const r = build('url=a.test&url=b.test&country=fr,de&pdf=1&pdf_one_page=1&video=1&video_format=webm');
    expect(r.drafts.map((d) => `${d.fields.url} ${d.fields.country}`)).to.deep.equal(['https://a.test/ fr', 'https://a.test/ de', 'https://b.test/ fr', 'https://b.test/ de']);
    const spec = r.drafts[0]?.spec;
    expect(spec?.pdf).to.deep.include({ format: 'a4', onePage: true });
    expect(spec?.video).to.deep.include({ format: 'webm', fps: 25 });
    expect(spec?.timezone).to.equal('Europe/Paris');
    expect(new Set(r.drafts.map((d) => d.specHash)).size).to.equal(4);
    // The same options give the same cache key; a different option gives another.
    expect(build('url=a.test&country=fr&pdf=1&pdf_one_page=1&video=1&video_format=webm').drafts[0]?.specHash).to.equal(r.drafts[0]?.specHash);
    expect(build('url=a.test&country=fr&pdf=1&video=1&video_format=webm').drafts[0]?.specHash).to.not.equal(r.drafts[0]?.specHash);
  });

  it('carries headers, cookies, post data and geolocation into the CaptureSpec', () => {
    const [d] = build(`url=a.test&header=${encodeURIComponent('{"X-A":"1"}')}&cookie=${encodeURIComponent('s=1; t=2')}&post_data=a%3D1&geo_latitude=1.5&geo_longitude=2.5`).drafts;
    expect(d?.spec.headers).to.deep.equal([{ name: 'X-A', value: '1' }]);
    expect(d?.spec.cookies).to.deep.equal([
      { name: 's', value: '1' },
      { name: 't', value: '2' },
    ]);
    expect(d?.spec.postData).to.equal('a=1');
    expect(d?.spec.geo).to.deep.equal({ latitude: 1.5, longitude: 2.5 });
  });

  it('refuses more than 100 screenshots in one request', () => {
    const urls = Array.from({ length: 51 }, (_, i) => `url=s${i}.test`).join('&');
    expect(failureOf(`${urls}&country=fr,de`)).to.have.property('url');
    expect(failureOf(Array.from({ length: 101 }, (_, i) => `url=s${i}.test`).join('&'))).to.have.property('url');
  });

  it('refuses bracket notation nested too deep or with huge indexes', () => {
    expect(() => parseQuery('step[0][a][b][c][d]=1')).to.throw(/deeper/);
    expect(() => parseQuery('step[100000][command]=click')).to.throw(/index/);
  });
});
