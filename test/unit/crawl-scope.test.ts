import { expect } from 'chai';
import { KeyedMutex } from '../../api/crawls/keyed-mutex.js';
import { crawlKey, isInDomain, linksInScope, normaliseDomain } from '../../api/crawls/crawl-scope.js';

describe('crawl scope', () => {
  it('accepts host names only, in lowercase ASCII', () => {
    expect(normaliseDomain('Example.COM')).to.equal('example.com');
    expect(normaliseDomain('bücher.example')).to.equal('xn--bcher-kva.example');
    expect(normaliseDomain('localhost')).to.equal('localhost');
    for (const bad of ['', 'http://example.com', 'example.com/x', 'example.com:80', 'exa mple.com', '-a.com', 'a..com', `${'a'.repeat(64)}.com`]) {
      expect(normaliseDomain(bad), bad).to.equal(null);
    }
  });

  it('takes the domain and its subdomains, not names that merely end like it', () => {
    expect(isInDomain('example.com', 'example.com')).to.equal(true);
    expect(isInDomain('a.b.example.com', 'example.com')).to.equal(true);
    expect(isInDomain('badexample.com', 'example.com')).to.equal(false);
    expect(isInDomain('example.com.evil.net', 'example.com')).to.equal(false);
  });

  it('keys a link without its fragment and keeps each in-scope link once, in page order', () => {
    expect(crawlKey('HTTP://Example.com/a?b=1#top')).to.deep.equal({ url: 'http://example.com/a?b=1', host: 'example.com' });
    expect(crawlKey('mailto:x@example.com')).to.equal(null);
    const links = ['https://example.com/b#x', 'https://other.org/', 'https://example.com/b', 'https://sub.example.com/', 'https://example.com/a#y'];
    expect(linksInScope(links, 'example.com').map((l) => l.url)).to.deep.equal(['https://example.com/b', 'https://sub.example.com/', 'https://example.com/a']);
  });
});

describe('KeyedMutex', () => {
  it('runs holders of one key one at a time, in order, and other keys alongside', async () => {
    const locks = new KeyedMutex();
    const events: string[] = [];
    const hold = (key: number, name: string, ms: number): Promise<void> =>
      locks.run(key, async () => {
        events.push(`${name}+`);
        await new Promise((r) => setTimeout(r, ms));
        events.push(`${name}-`);
      });
    await Promise.all([hold(1, 'a', 30), hold(1, 'b', 1), hold(2, 'c', 5), hold(1, 'd', 1)]);
    expect(events.filter((e) => !e.startsWith('c'))).to.deep.equal(['a+', 'a-', 'b+', 'b-', 'd+', 'd-']);
    // c (another key) started before a (same start time) ended.
    expect(events.indexOf('c+')).to.be.below(events.indexOf('a-'));
  });

  it('a holder that throws releases the key', async () => {
    const locks = new KeyedMutex();
    await locks
      .run(7, async () => {
        throw new Error('boom');
      })
      .catch(() => undefined);
    expect(await locks.run(7, async () => 'free')).to.equal('free');
  });
});
