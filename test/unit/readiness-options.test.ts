import { expect } from 'chai';
import sharp from 'sharp';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { DEFAULT_CAPTURE_LIMITS } from '../../core/contracts/browser-driver.js';
import { DEFAULT_PRICING } from '../../core/pricing.js';
import { buildCreateRequest, hashSpec } from '../../api/options/create-request.js';
import { parseQuery } from '../../api/options/query-input.js';
import { splitSelectorList } from '../../api/options/selector-params.js';
import { isOneColour } from '../../drivers/shared/blank-check.js';

const build = (query: string) =>
  buildCreateRequest(parseQuery(`url=http://site.test/page${query}`), { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 86400, maxCapturePixels: DEFAULT_CAPTURE_LIMITS.maxCapturePixels });
const READINESS_FIELDS = ['waitFor', 'waitForHidden', 'waitStrict', 'clicks', 'hover', 'hideSelectors', 'css', 'failOnStatus', 'failIfSelector', 'failUnlessSelector', 'failOnBlank'] as const;

describe('readiness and condition options (unit)', function () {
  it('splits a comma list of selectors at the commas outside brackets, parentheses and quotes', function () {
    expect(splitSelectorList('#a, .b > c,[title="x,y"], :is(.d, .e) ,, a[href=\'p,q\']')).to.deep.equal(['#a', '.b > c', '[title="x,y"]', ':is(.d, .e)', "a[href='p,q']"]);
    expect(splitSelectorList('.a\\,b, .c')).to.deep.equal(['.a\\,b', '.c']);
  });

  it('carries every option into the CaptureSpec', function () {
    const spec = build(
      '&wait_for=%23content&wait_for_hidden=.spinner&wait_strict=1&click=%23a,%23b&hover=nav&hide_selector=%23ad&css=p%7Bcolor:red%7D&fail_on_status=4xx,404,404&fail_if_selector=.error&fail_unless_selector=main&fail_on_blank=on',
    ).drafts[0]!.spec;
    expect(spec).to.deep.include({
      waitFor: '#content',
      waitForHidden: '.spinner',
      waitStrict: true,
      clicks: ['#a', '#b'],
      hover: 'nav',
      hideSelectors: ['#ad'],
      css: 'p{color:red}',
      failOnStatus: ['4xx', '404'],
      failIfSelector: '.error',
      failUnlessSelector: 'main',
      failOnBlank: true,
    });
  });

  it('leaves the cache key of a request that uses none of them as it was before they existed', function () {
    const spec = build('').drafts[0]!.spec;
    const before = { ...spec } as Partial<CaptureSpec>;
    for (const key of READINESS_FIELDS) delete before[key];
    expect(hashSpec(spec)).to.equal(hashSpec(before as CaptureSpec));
  });

  it('makes each of them part of the cache key when given', function () {
    const plain = build('').drafts[0]!.specHash;
    for (const query of [
      '&wait_for=a',
      '&wait_for_hidden=a',
      '&wait_strict=1',
      '&click=a',
      '&hover=a',
      '&hide_selector=a',
      '&css=a',
      '&fail_on_status=404',
      '&fail_if_selector=a',
      '&fail_unless_selector=a',
      '&fail_on_blank=1',
    ]) {
      expect(build(query).drafts[0]!.specHash, query).to.not.equal(plain);
    }
  });
});

describe('blank check: one colour (sharp statistics of a small copy)', function () {
  const png = (svg: string): Promise<Buffer> => sharp(Buffer.from(svg)).png().toBuffer();
  const page = (body: string): string => `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800"><rect width="100%" height="100%" fill="#ffffff"/>${body}</svg>`;

  it('a picture of one colour is, whatever the colour and size', async function () {
    expect(await isOneColour(await png(page('')))).to.equal(true);
    expect(
      await isOneColour(
        await sharp({ create: { width: 800, height: 6000, channels: 4, background: '#3366ff' } })
          .png()
          .toBuffer(),
      ),
    ).to.equal(true);
  });

  it('a white page with one short line of text is not', async function () {
    expect(await isOneColour(await png(page('<text x="600" y="400" font-size="14" font-family="sans-serif">Sold out</text>')))).to.equal(false);
  });

  it('a gradient, or a small picture in a corner, is not', async function () {
    expect(
      await isOneColour(
        await png(
          '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#36f"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>',
        ),
      ),
    ).to.equal(false);
    expect(await isOneColour(await png(page('<rect x="1240" y="760" width="24" height="24" fill="#ff0000"/>')))).to.equal(false);
  });

  it('a tall picture is looked at in its top band first, and whole when that band is one colour', async function () {
    const tall = (body: string): Promise<Buffer> => png(`<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="6000"><rect width="100%" height="100%" fill="#ffffff"/>${body}</svg>`);
    expect(await isOneColour(await tall('<rect x="600" y="300" width="40" height="40" fill="#000000"/>'))).to.equal(false);
    expect(await isOneColour(await tall('<rect x="0" y="5000" width="1280" height="400" fill="#ff0000"/>'))).to.equal(false);
    expect(await isOneColour(await tall(''))).to.equal(true);
  });
});
