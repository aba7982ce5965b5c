import { expect } from 'chai';
import { MAX_ECHO_CHARS, parseUrlList } from '../../api/batches/url-list.js';

const LIMIT = { maxUrls: 100 };
const urls = (text: string, opts = LIMIT): string[] => parseUrlList(text, opts).entries.map((e) => e.url);

describe('batch URL list (unit)', () => {
  describe('plain lists', () => {
    it('reads one URL per line, normalised, with 1-based line numbers', () => {
      const list = parseUrlList('https://Example.com/a\nexample.org\n//cdn.example.net/x', LIMIT);
      expect(list.entries).to.deep.equal([
        { url: 'https://example.com/a', filename: null, line: 1 },
        { url: 'https://example.org/', filename: null, line: 2 },
        { url: 'https://cdn.example.net/x', filename: null, line: 3 },
      ]);
      expect(list.count).to.equal(3);
      expect(list.invalid).to.deep.equal([]);
    });

    it('skips blank and comment lines but keeps counting them', () => {
      const list = parseUrlList('\n# first a comment\n   \n  # indented comment\nhttps://a.example/\n\t\nhttps://b.example/\n', LIMIT);
      expect(list.entries.map((e) => [e.line, e.url])).to.deep.equal([
        [5, 'https://a.example/'],
        [7, 'https://b.example/'],
      ]);
    });

    it('ignores a UTF-8 BOM and accepts CRLF, LF and lone CR line ends', () => {
      const list = parseUrlList('\uFEFFhttps://a.example/\r\nhttps://b.example/\rhttps://c.example/\nhttps://d.example/', LIMIT);
      expect(list.entries.map((e) => [e.line, e.url])).to.deep.equal([
        [1, 'https://a.example/'],
        [2, 'https://b.example/'],
        [3, 'https://c.example/'],
        [4, 'https://d.example/'],
      ]);
    });

    it('trims spaces around a URL', () => {
      expect(urls('   https://a.example/x   \n\thttps://b.example/\t')).to.deep.equal(['https://a.example/x', 'https://b.example/']);
    });

    it('reports bad lines with their number and reason, and keeps going', () => {
      const list = parseUrlList('ftp://files.example/\nhttps://ok.example/\njavascript:alert(1)\nhttp://\nhttps://a\u0001b.example/\nhttps://ok2.example/', LIMIT);
      expect(list.entries.map((e) => e.url)).to.deep.equal(['https://ok.example/', 'https://ok2.example/']);
      expect(list.invalid.map((p) => p.line)).to.deep.equal([1, 3, 4, 5]);
      expect(list.invalid[0]).to.deep.equal({ line: 1, text: 'ftp://files.example/', error: 'url must use http or https' });
      expect(list.invalid[1]?.error).to.equal('url must use http or https');
      expect(list.invalid[2]?.error).to.match(/^url must/);
      expect(list.invalid[3]?.error).to.equal('url must not contain control characters');
    });

    it('drops duplicates after normalisation: the first occurrence wins', () => {
      const list = parseUrlList('https://example.com\nHTTPS://EXAMPLE.COM/\nexample.com\nhttps://example.com/#frag\nhttps://other.example/', LIMIT);
      expect(list.entries).to.deep.equal([
        { url: 'https://example.com/', filename: null, line: 1 },
        { url: 'https://example.com/#frag', filename: null, line: 4 },
        { url: 'https://other.example/', filename: null, line: 5 },
      ]);
      expect(list.count).to.equal(3);
      expect(list.invalid).to.deep.equal([], 'a duplicate is not an error');
    });

    it('gives the empty list for an empty or comment-only file', () => {
      for (const text of ['', '\uFEFF', '\n\n', '# only a comment\r\n']) {
        expect(parseUrlList(text, LIMIT), JSON.stringify(text)).to.deep.equal({ entries: [], invalid: [], count: 0 });
      }
    });
  });

  describe('the limit', () => {
    it('puts the lines past maxUrls unique URLs in invalid, saying why', () => {
      const list = parseUrlList('a.example\nb.example\na.example\nc.example\nd.example', { maxUrls: 2 });
      expect(list.entries.map((e) => e.url)).to.deep.equal(['https://a.example/', 'https://b.example/']);
      expect(list.count).to.equal(2);
      expect(list.invalid).to.deep.equal([
        { line: 4, text: 'c.example', error: 'more than 2 unique URLs: a batch holds at most 2' },
        { line: 5, text: 'd.example', error: 'more than 2 unique URLs: a batch holds at most 2' },
      ]);
    });

    it('still drops a duplicate of an accepted URL after the limit is reached', () => {
      const list = parseUrlList('a.example\nb.example\nhttps://a.example/', { maxUrls: 2 });
      expect(list.invalid).to.deep.equal([]);
      expect(list.count).to.equal(2);
    });

    it('refuses a limit that is not a whole number ≥ 1', () => {
      for (const maxUrls of [0, -1, 1.5, Number.NaN]) expect(() => parseUrlList('a.example', { maxUrls })).to.throw(RangeError);
    });
  });

  describe('CSV and TSV', () => {
    it('recognises a header with a url column (any case) and reads the filename column', () => {
      const list = parseUrlList('Name,URL,FileName\nHome,https://example.com/,home\nAbout,example.com/about,\n', LIMIT);
      expect(list.entries).to.deep.equal([
        { url: 'https://example.com/', filename: 'home', line: 2 },
        { url: 'https://example.com/about', filename: null, line: 3 },
      ]);
    });

    it('reads RFC 4180 quoting: commas, doubled quotes, line breaks inside a quoted field', () => {
      const text = ['url,filename', '"https://example.com/?a=1,2","say ""hi"""', '"https://example.com/x",   "two', 'lines"', 'https://example.com/after,plain'].join('\r\n');
      const list = parseUrlList(text, LIMIT);
      expect(list.entries).to.deep.equal([
        { url: 'https://example.com/?a=1,2', filename: 'say "hi"', line: 2 },
        { url: 'https://example.com/x', filename: 'two\nlines', line: 3 },
        { url: 'https://example.com/after', filename: 'plain', line: 5 },
      ]);
    });

    it('uses a tab as the delimiter when the header holds one', () => {
      const list = parseUrlList('filename\turl\nhome\thttps://example.com/?a=1,2\n"quoted\tname"\texample.org', LIMIT);
      expect(list.entries).to.deep.equal([
        { url: 'https://example.com/?a=1,2', filename: 'home', line: 2 },
        { url: 'https://example.org/', filename: 'quoted\tname', line: 3 },
      ]);
    });

    it('accepts a one-column file whose header is just url', () => {
      expect(parseUrlList('url\nexample.com\n', LIMIT).entries).to.deep.equal([{ url: 'https://example.com/', filename: null, line: 2 }]);
    });

    it('finds the header after leading comments and blank lines, and skips them between rows', () => {
      const list = parseUrlList('# exported 2024-01-01\n\nurl,filename\n# a comment row\na.example,a\n,\n  \nb.example,b', LIMIT);
      expect(list.entries.map((e) => [e.line, e.url, e.filename])).to.deep.equal([
        [5, 'https://a.example/', 'a'],
        [8, 'https://b.example/', 'b'],
      ]);
      expect(list.invalid).to.deep.equal([], 'an all-empty row is a blank line');
    });

    it('keeps the first filename of a duplicate URL', () => {
      const list = parseUrlList('url,filename\nexample.com,first\nhttps://EXAMPLE.com/,second', LIMIT);
      expect(list.entries).to.deep.equal([{ url: 'https://example.com/', filename: 'first', line: 2 }]);
    });

    it('reports a row without a url, or with a bad one, by line', () => {
      const list = parseUrlList('filename,url\nonly-a-name\nname,\nname,mailto:x@example.com\nok,example.com', LIMIT);
      expect(list.invalid).to.deep.equal([
        { line: 2, text: 'only-a-name', error: 'the url column is empty or missing' },
        { line: 3, text: 'name,', error: 'the url column is empty or missing' },
        { line: 4, text: 'name,mailto:x@example.com', error: 'url must use http or https' },
      ]);
      expect(list.count).to.equal(1);
    });

    it('reports a quote that is never closed on its own line only, then reads on', () => {
      const list = parseUrlList('url,filename\n"https://a.example/,broken\nb.example,b\nc.example,c', LIMIT);
      expect(list.invalid).to.deep.equal([{ line: 2, text: '"https://a.example/,broken', error: 'a quoted field is never closed' }]);
      expect(list.entries.map((e) => e.url)).to.deep.equal(['https://b.example/', 'https://c.example/']);
    });

    it('treats a first line without a url column as a plain list', () => {
      const list = parseUrlList('https://example.com/a,b\nhttps://example.com/c', LIMIT);
      expect(list.entries.map((e) => e.url)).to.deep.equal(['https://example.com/a,b', 'https://example.com/c']);
    });
  });

  it('cuts the echoed text of a very long bad line', () => {
    const line = `ftp://${'x'.repeat(5000)}`;
    const [problem] = parseUrlList(line, LIMIT).invalid;
    expect(problem?.text).to.have.length(MAX_ECHO_CHARS + 1);
    expect(problem?.text.endsWith('…')).to.equal(true);
  });
});
