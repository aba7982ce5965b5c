import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { ApiError } from '../../core/errors.js';
import { DEFAULT_PRICING } from '../../core/pricing.js';
import { DEFAULT_CAPTURE_LIMITS } from '../../core/contracts/browser-driver.js';
import { buildCreateRequest, hashSpec } from '../../api/options/create-request.js';
import { parseQuery } from '../../api/options/query-input.js';
import { recordedUrl, sourceDocument, SOURCE_DOCUMENT_URL } from '../../drivers/source/source-document.js';

const ctx = { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 86400, maxCapturePixels: DEFAULT_CAPTURE_LIMITS.maxCapturePixels };
const build = (params: Record<string, string>) => buildCreateRequest(parseQuery(new URLSearchParams(params).toString()), ctx);
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

function fieldsOf(params: Record<string, string>): Record<string, string[]> {
  try {
    build(params);
  } catch (err) {
    expect(err).to.be.instanceOf(ApiError);
    return (err as ApiError).extra.fields as Record<string, string[]>;
  }
  throw new Error('expected a 400');
}

describe('source_html / source_markdown (create options, beyond-v1.md part 3)', () => {
  it('a source is one record whose url is source:<kind>/<sha256 of the text as sent>, with the text in its spec', () => {
    const text = '<h1>Grüße ✓</h1>';
    const { drafts } = build({ source_html: text, base_url: 'http://example.test/assets/' });
    expect(drafts).to.have.length(1);
    const [draft] = drafts;
    expect(draft?.spec.url).to.equal(`source:html/${sha256(text)}`);
    expect(draft?.fields.url).to.equal(draft?.spec.url);
    expect(draft?.spec.source).to.deep.equal({ kind: 'html', text, baseUrl: 'http://example.test/assets/' });
    expect(draft?.fields.base_url).to.equal('http://example.test/assets/');
    expect(build({ source_markdown: '# x' }).drafts[0]?.spec.url).to.equal(`source:markdown/${sha256('# x')}`);
  });

  it('the source joins the cache key; a url request keeps the key it had before sources existed', () => {
    const a = build({ source_html: '<p>a</p>' }).drafts[0];
    const b = build({ source_html: '<p>b</p>' }).drafts[0];
    const md = build({ source_markdown: '<p>a</p>' }).drafts[0];
    const based = build({ source_html: '<p>a</p>', base_url: 'http://example.test/' }).drafts[0];
    expect(new Set([a?.specHash, b?.specHash, md?.specHash, based?.specHash]).size).to.equal(4);
    const page = build({ url: 'http://example.test/' }).drafts[0];
    expect(page?.spec.source).to.equal(null);
    const { source: _none, ...before } = page!.spec;
    expect(page?.specHash).to.equal(hashSpec(before as CaptureSpec));
  });

  it('exactly one of url, source_html and source_markdown, each error under its field', () => {
    expect(fieldsOf({ url: 'http://example.test/', source_html: '<p>x</p>' })).to.have.keys('url', 'source_html');
    expect(fieldsOf({ source_markdown: '# x', source_html: '<p>x</p>' })).to.have.keys('source_html', 'source_markdown');
    expect(fieldsOf({ delay: '1' })).to.have.keys('url');
    expect(fieldsOf({ url: 'http://example.test/', base_url: 'http://example.test/' })).to.have.keys('base_url');
    expect(fieldsOf({ source_html: '<p>x</p>', post_data: 'a=1', cookie: 'a=b' })).to.have.keys('post_data', 'cookie');
    expect(fieldsOf({ source_html: 'a\u0000b' })).to.have.keys('source_html');
    expect(fieldsOf({ source_html: '' })).to.have.keys('source_html');
    expect(fieldsOf({ source_html: '<p>x</p>', base_url: 'javascript:alert(1)' })).to.have.keys('base_url');
  });

  it('a lone surrogate (a JSON body can carry one; Postgres jsonb cannot) is a 400, not a 500', () => {
    const query = Object.assign(Object.create(null), { source_html: ['<p>\uD800</p>'] });
    expect(() => buildCreateRequest(query, ctx)).to.throw(ApiError);
  });
});

describe('the source document a driver serves', () => {
  it('source_html as sent; base_url as the first <base>, after the doctype', () => {
    expect(sourceDocument({ kind: 'html', text: '<p>x</p>', baseUrl: null })).to.equal('<p>x</p>');
    expect(sourceDocument({ kind: 'html', text: '<!DOCTYPE html><base href="/other/"><p>x</p>', baseUrl: 'http://a.test/"x' })).to.equal(
      '<!DOCTYPE html><base href="http://a.test/&quot;x"><base href="/other/"><p>x</p>',
    );
  });

  it('source_markdown rendered by marked (GitHub tables, task lists) inside the default stylesheet', () => {
    const html = sourceDocument({ kind: 'markdown', text: '# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n', baseUrl: 'http://a.test/' });
    expect(html).to.match(/^<!doctype html><html><head><meta charset="utf-8"><base href="http:\/\/a.test\/">/);
    expect(html).to.include('<h1>T</h1>').and.include('<td>1</td>').and.include('type="checkbox"').and.include('<style>');
  });

  it('the record shows the source url for the reserved document, and any other url as it is', () => {
    const spec = { url: 'source:html/abc', source: { kind: 'html' as const, text: '', baseUrl: null } };
    expect(recordedUrl(spec, SOURCE_DOCUMENT_URL)).to.equal('source:html/abc');
    expect(recordedUrl(spec, `${SOURCE_DOCUMENT_URL}#top`)).to.equal('source:html/abc');
    expect(recordedUrl(spec, 'http://elsewhere.test/')).to.equal('http://elsewhere.test/');
    expect(recordedUrl({ url: 'http://a.test/', source: null }, SOURCE_DOCUMENT_URL)).to.equal(SOURCE_DOCUMENT_URL);
  });
});
