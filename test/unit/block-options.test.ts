import { expect } from 'chai';
import { FiltersEngine } from '@ghostery/adblocker';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { ApiError } from '../../core/errors.js';
import { DEFAULT_CAPTURE_LIMITS } from '../../core/contracts/browser-driver.js';
import { DEFAULT_PRICING } from '../../core/pricing.js';
import { buildCreateRequest, hashSpec } from '../../api/options/create-request.js';
import { parseQuery } from '../../api/options/query-input.js';
import { dnrToFilters, filterLines, type DnrRule } from '../../drivers/shared/block-lists/dnr-filters.js';
import { RequestBlocker, askedCategories, urlPatternRegExp } from '../../drivers/shared/block-lists/request-blocker.js';
import type { MaintainedEngines } from '../../drivers/shared/block-lists/maintained-engines.js';
import type { ListCategory } from '../../drivers/shared/block-lists/maintained-lists.js';
import { captureSpec } from '../support/capture-spec-factory.js';

const build = (query: string) =>
  buildCreateRequest(parseQuery(`url=http://site.test/page${query}`), { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 86400, maxCapturePixels: DEFAULT_CAPTURE_LIMITS.maxCapturePixels });
const BLOCK_FIELDS = ['blockChats', 'blockTrackers', 'blockSocial', 'blockResources', 'blockUrls'] as const;

/** Test-only engines: small lists in the category's place, parsed here (the real ones are AdGuard's, built once per process). */
const testEngines = (lists: Partial<Record<ListCategory, string>>): MaintainedEngines =>
  ({ of: (category: ListCategory) => Promise.resolve(FiltersEngine.parse(lists[category] ?? '', { loadCosmeticFilters: false })) }) as unknown as MaintainedEngines;

const request = (url: string, resourceType = 'script') => ({ url, resourceType, mainFrame: false, pageUrl: 'http://news.test/article' });

describe('blocking options (unit)', function () {
  describe('the options', function () {
    it('carries each into the CaptureSpec; block_resources takes a comma list, block_urls one pattern per parameter', function () {
      const spec = build('&block_chats=1&block_trackers=true&block_social=on&block_resources=image,font&block_resources=font&block_urls=*.example/a,b*&block_urls=https://cdn.test/*').drafts[0]!.spec;
      expect(spec).to.deep.include({ blockChats: true, blockTrackers: true, blockSocial: true, blockResources: ['image', 'font'], blockUrls: ['*.example/a,b*', 'https://cdn.test/*'] });
    });

    it('refuses an unknown resource type and a pattern of only wildcards, naming the option', function () {
      const fieldsOf = (query: string) => {
        try {
          build(query);
        } catch (error) {
          return (error as ApiError).extra.fields ?? {};
        }
        return {};
      };
      expect(fieldsOf('&block_resources=image,video')).to.have.property('block_resources');
      expect(fieldsOf('&block_urls=**')).to.have.property('block_urls');
    });

    it('keeps the cache key of a request that uses none of them, and changes it when one is given', function () {
      const spec = build('').drafts[0]!.spec;
      const before = { ...spec } as Partial<CaptureSpec>;
      for (const key of BLOCK_FIELDS) delete before[key];
      expect(hashSpec(spec)).to.equal(hashSpec(before as CaptureSpec));
      const plain = build('').drafts[0]!.specHash;
      for (const query of ['&block_chats=1', '&block_trackers=1', '&block_social=1', '&block_resources=font', '&block_urls=*.woff2'])
        expect(build(query).drafts[0]!.specHash, query).to.not.equal(plain);
    });
  });

  describe('DNR rules as filters', function () {
    const rule = (action: string, condition: DnrRule['condition']): DnrRule => ({ action: { type: action }, condition });

    it('writes urlFilter, party, types and initiator domains as Adblock Plus options', function () {
      expect(filterLines(rule('block', { urlFilter: '||js.driftt.com^', domainType: 'thirdParty', resourceTypes: ['script', 'sub_frame', 'main_frame'] }))).to.deep.equal([
        '||js.driftt.com^$third-party,script,subdocument',
      ]);
      expect(filterLines(rule('allow', { urlFilter: '||cdn.test/ok.js', initiatorDomains: ['a.test'], excludedInitiatorDomains: ['b.a.test'] }))).to.deep.equal([
        '@@||cdn.test/ok.js$domain=a.test|~b.a.test',
      ]);
      expect(filterLines(rule('redirect', { urlFilter: '||ga.test/analytics.js', excludedResourceTypes: ['image'] }))).to.deep.equal(['||ga.test/analytics.js$~image']);
      expect(filterLines(rule('block', { regexFilter: '^https?://x\\.test/ad[0-9]+' }))).to.deep.equal(['/^https?://x\\.test/ad[0-9]+/']);
      expect(filterLines(rule('block', { requestDomains: ['a.test', 'b.test'] }))).to.deep.equal(['||a.test^', '||b.test^']);
    });

    it('keeps a urlFilter that looks like a regular expression or holds `$` literal', function () {
      expect(filterLines(rule('block', { urlFilter: '/ads/' }))).to.deep.equal(['/ads/*']);
      expect(filterLines(rule('block', { urlFilter: '/track$id=' }))).to.deep.equal(['/track*']);
    });

    it('leaves out what the engine cannot mean the same way, and counts it', function () {
      const { filters, skipped } = dnrToFilters([
        rule('modifyHeaders', { urlFilter: '||a.test^' }),
        rule('allowAllRequests', { urlFilter: '||b.test^', resourceTypes: ['main_frame'] }),
        rule('block', { urlFilter: '||c.test^', resourceTypes: ['main_frame'] }),
        rule('block', { urlFilter: '||d.test^', requestMethods: ['post'] }),
        rule('block', { urlFilter: '||e.test^' }),
      ]);
      expect(filters).to.deep.equal(['||e.test^']);
      expect(skipped).to.equal(4);
    });
  });

  describe('the request blocker', function () {
    it('asks the categories in counting order; brave asks ads and trackers', function () {
      const spec = captureSpec('chrome', 'http://news.test/', { hideAds: true, blockSocial: true, blockChats: true });
      expect(askedCategories(spec, false)).to.deep.equal(['chats', 'social', 'ads']);
      expect(askedCategories(captureSpec('brave', 'http://news.test/'), true)).to.deep.equal(['trackers', 'ads']);
    });

    it('counts a request on several lists once, in the first category asked of: chats, social, trackers, ads', async function () {
      const spec = captureSpec('chrome', 'http://news.test/', { hideAds: true, blockTrackers: true, blockChats: true });
      const blocker = await RequestBlocker.forSpec(spec, false, testEngines({ chats: '||chat.test^', trackers: '||chat.test^\n||pixel.test^', ads: '||pixel.test^\n||ads.test^' }), null);
      expect(blocker!.judge(request('http://chat.test/widget.js'))).to.equal('chats');
      expect(blocker!.judge(request('http://pixel.test/p.gif', 'image'))).to.equal('trackers');
      expect(blocker!.judge(request('http://ads.test/slot.js'))).to.equal('ads');
      expect(blocker!.judge(request('http://news.test/app.js'))).to.equal(null);
      expect(blocker!.counts).to.deep.equal({ ads: 1, trackers: 1, chats: 1, social: 0, resources: 0, urls: 0 });
    });

    it('never blocks the page itself, and judges block_urls, then block_resources, before the lists', async function () {
      const spec = captureSpec('chrome', 'http://news.test/', { hideAds: true, blockResources: ['font', 'image'], blockUrls: ['http://ads.test/keep-*.png'] });
      const blocker = await RequestBlocker.forSpec(spec, false, testEngines({ ads: '||ads.test^' }), null);
      expect(blocker!.judge({ ...request('http://ads.test/', 'Document'), mainFrame: true })).to.equal(null);
      expect(blocker!.judge(request('http://ads.test/keep-1.png', 'Image'))).to.equal('urls');
      expect(blocker!.judge(request('http://ads.test/banner.png', 'image'))).to.equal('resources');
      expect(blocker!.judge(request('http://ads.test/frame.html', 'document'))).to.equal('ads');
      expect(blocker!.judge(request('http://news.test/font.woff2', 'Font'))).to.equal('resources');
      expect(blocker!.counts).to.deep.equal({ ads: 1, trackers: 0, chats: 0, social: 0, resources: 2, urls: 1 });
    });

    it('is not made for a spec that blocks nothing', async function () {
      expect(await RequestBlocker.forSpec(captureSpec('chrome', 'http://news.test/'), false, testEngines({}), null)).to.equal(null);
    });

    it('reads `*` as any characters over the whole URL, every other character as itself', function () {
      const re = urlPatternRegExp('*.doubleclick.net/*?id=*');
      expect(re.test('https://ad.doubleclick.net/x?id=3')).to.equal(true);
      expect(re.test('https://adXdoubleclick.net/x?id=3')).to.equal(false);
      expect(urlPatternRegExp('https://cdn.test/a.js').test('https://cdn.test/a.js?v=1')).to.equal(false);
    });
  });
});
