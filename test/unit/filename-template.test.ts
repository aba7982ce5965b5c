import { expect } from 'chai';
import {
  DEFAULT_FILENAME_TEMPLATE,
  FILENAME_VARIABLES,
  isSafeRelativeName,
  MAX_FOLDERS,
  MAX_SEGMENT_BYTES,
  MAX_TEMPLATE_LENGTH,
  renderFilename,
  renderRowFilename,
  validateTemplate,
} from '../../core/batch/filename-template.js';
import type { FilenameVars } from '../../core/batch/filename-template.js';

const VARS: FilenameVars = {
  id: 4711,
  url: 'https://www.example.com/docs/a%20b?q=1&lang=de#top', // as normaliseTargetUrl leaves it
  shot: 2,
  browser: 'firefox',
  country: 'de',
  // 23:30 UTC: still March 5th in UTC, already March 6th east of it. Names use UTC.
  date: new Date('2024-03-05T23:30:00Z'),
  tags: ['news', ' front page ', '', 'a/b'],
};
const withVars = (over: Partial<FilenameVars>): FilenameVars => ({ ...VARS, ...over });

describe('batch filename templates (unit)', () => {
  describe('variables', () => {
    const cases: [template: string, expected: string][] = [
      ['{id}', '4711'],
      ['{domain}-{id}', 'www.example.com-4711'],
      ['{shot}-{id}', '2-4711'],
      ['{browser}-{id}', 'firefox-4711'],
      ['{country}-{id}', 'de-4711'],
      ['{yyyy}-{id}', '2024-4711'],
      ['{mm}-{id}', '03-4711'],
      ['{dd}-{id}', '05-4711'],
      ['{date}-{id}', '2024-03-05-4711'],
      ['{tags}-{id}', 'news-front page-a_b-4711'],
      ['{url}-{id}', 'www.example.com_docs_a_20b_q_1_lang_de_top-4711'],
      ['{yyyy}{mm}{dd}_{id}', '20240305_4711'],
    ];
    for (const [template, expected] of cases) {
      it(`renders ${template}`, () => expect(renderFilename(template, VARS)).to.equal(expected));
    }

    it('renders {random} as 8 hex characters, new for each name', () => {
      const a = renderFilename('{random}-{id}', VARS);
      const b = renderFilename('{random}-{id}', VARS);
      expect(a).to.match(/^[0-9a-f]{8}-4711$/);
      expect(b).to.match(/^[0-9a-f]{8}-4711$/);
      expect(a).not.to.equal(b); // 2^-32 chance of a false failure
    });

    it('renders {shot} empty for outputs without a shot', () => {
      expect(renderFilename('{id}_{shot}', withVars({ shot: null }))).to.equal('4711_');
    });

    it('pads early years and months, in UTC', () => {
      expect(renderFilename('{date}', withVars({ date: new Date('0999-01-02T00:00:00Z') }))).to.equal('0999-01-02-4711');
    });

    it('takes the host of IDN URLs as the normaliser left it (punycode)', () => {
      expect(renderFilename('{domain}', withVars({ url: 'https://xn--bcher-kva.example/' }))).to.equal('xn--bcher-kva.example-4711');
    });

    it('covers every variable it documents', () => {
      const tested = new Set(['id', 'domain', 'shot', 'browser', 'country', 'yyyy', 'mm', 'dd', 'date', 'random', 'tags', 'url']);
      expect([...FILENAME_VARIABLES].sort()).to.deep.equal([...tested].sort());
    });

    it('refuses an invalid date instead of naming a file NaN', () => {
      expect(() => renderFilename('{date}', withVars({ date: new Date('nope') }))).to.throw(RangeError);
    });
  });

  describe('{id} injection', () => {
    const cases: [template: string | null, expected: string][] = [
      [null, '4711-www.example.com'],
      [DEFAULT_FILENAME_TEMPLATE, '4711-www.example.com'],
      ['{domain}', 'www.example.com-4711'],
      ['shot', 'shot-4711'],
      ['{domain}/{date}', 'www.example.com/2024-03-05-4711'],
      ['{domain}/', 'www.example.com/4711'],
      ['', '4711'],
      ['{id}/{domain}', '4711/www.example.com'],
      ['{domain}_{id}_{shot}', 'www.example.com_4711_2'],
    ];
    for (const [template, expected] of cases) {
      it(`${JSON.stringify(template)} → ${expected}`, () => expect(renderFilename(template, VARS)).to.equal(expected));
    }

    it('keeps the id when a long name is cut', () => {
      const long = withVars({ url: `https://example.com/${'x'.repeat(4000)}` });
      for (const template of ['{url}', '{url}-{id}', '{id}{url}{url}', 'prefix-{url}']) {
        const name = renderFilename(template, long);
        expect(Buffer.byteLength(name), template).to.be.at.most(MAX_SEGMENT_BYTES);
        expect(name, template).to.include('4711');
      }
      expect(renderFilename('{url}', long).endsWith('-4711')).to.equal(true);
      expect(renderFilename('{id}{url}', long).startsWith('4711example.com_xxx')).to.equal(true);
    });

    it('injects no id into a row filename', () => {
      expect(renderRowFilename('homepage', VARS)).to.equal('homepage');
      expect(renderRowFilename('{domain}-{shot}', VARS)).to.equal('www.example.com-2');
    });
  });

  describe('sanitising', () => {
    const cases: [label: string, template: string, expected: string][] = [
      ['path traversal up', '../../etc/passwd', 'etc/passwd-4711'],
      ['path traversal with backslashes', '..\\x', 'x-4711'],
      ['absolute path', '/etc/passwd', 'etc/passwd-4711'],
      ['Windows absolute path', 'C:\\Windows\\system32', 'C_/Windows/system32-4711'],
      ['dot segments inside', 'a/./b/../c', 'a/b/c-4711'],
      ['only dots', '../..', '4711'],
      ['leading dots (hidden file)', '.htaccess', 'htaccess-4711'],
      ['trailing dots and spaces', 'name. . ', 'name-4711'],
      ['control characters', 'a\u0000b\tc\nd\u007fe\u009f', 'abcde-4711'],
      ['bidi override (extension spoofing)', 'invoice\u202Egnp.exe', 'invoicegnp.exe-4711'],
      ['zero-width characters', 'a\u200Bb\uFEFFc', 'abc-4711'],
      ['reserved characters', 'a<b>c:d"e|f?g*h', 'a_b_c_d_e_f_g_h-4711'],
      ['unpaired surrogate', 'a\uD800b', 'a_b-4711'],
      ['decomposed accents are composed (NFC)', 'cafe\u0301', 'caf\u00e9-4711'],
      ['a known output extension is dropped', '{domain}.PNG', 'www.example.com-4711'],
      ['other extensions stay', 'report.txt', 'report.txt-4711'],
      ['unknown variables stay literal', '{nope}-{ID}', '{nope}-{ID}-4711'],
      ['too deep: extra folders join the file name', 'a/b/c/d/e', 'a/b/c/d_e-4711'],
      ['too deep with the injected id', 'a/b/c/d/', 'a/b/c/d_4711'],
      ['variable values never make folders', '{tags}', 'news-front page-a_b-4711'],
    ];
    for (const [label, template, expected] of cases) {
      it(`${label}: ${JSON.stringify(template)}`, () => {
        const name = renderFilename(template, VARS);
        expect(name).to.equal(expected);
        expect(isSafeRelativeName(name)).to.equal(true);
      });
    }

    it('prefixes Windows device names', () => {
      expect(renderRowFilename('con', VARS)).to.equal('_con');
      expect(renderRowFilename('NUL.txt', VARS)).to.equal('_NUL.txt');
      expect(renderRowFilename('lpt1/x', VARS)).to.equal('_lpt1/x');
      expect(renderRowFilename('console', VARS)).to.equal('console');
    });

    it('sanitises row filenames the same way, falling back to the id when nothing is left', () => {
      expect(renderRowFilename('../../etc/passwd', VARS)).to.equal('etc/passwd');
      expect(renderRowFilename('..', VARS)).to.equal('4711');
      expect(renderRowFilename(' \u0000 ', VARS)).to.equal('4711');
      expect(renderRowFilename('home.png', VARS)).to.equal('home');
    });

    it('cuts each segment to MAX_SEGMENT_BYTES without splitting a character', () => {
      const name = renderRowFilename(`${'é'.repeat(150)}/${'€'.repeat(100)}`, VARS); // 2 and 3 bytes each
      const [folder, file] = name.split('/') as [string, string];
      expect(Buffer.byteLength(folder)).to.equal(MAX_SEGMENT_BYTES);
      expect(file).to.equal('€'.repeat(66)); // 198 bytes: a 67th would pass 200
      expect(name).not.to.include('\uFFFD');
    });

    it('never yields an unsafe or empty name (a sweep of hostile inputs)', () => {
      const hostile = ['', '.', '..', '...', '/', '\\', '//', '../', '..\\..\\', '. /. /', '\u0000', '{url}', '{tags}', '{shot}', ' ', '\u202E', 'a/../../b', '~/x', '$(rm -rf)', '%2e%2e%2f'];
      const values = [VARS, withVars({ url: 'https://[::1]:8080/../..', tags: ['..', '/', '\\'], shot: null, browser: '../..', country: '..' })];
      for (const v of values) {
        for (const t of hostile) {
          for (const name of [renderFilename(t, v), renderRowFilename(t, v)]) {
            expect(isSafeRelativeName(name), `${JSON.stringify(t)} → ${JSON.stringify(name)}`).to.equal(true);
            expect(name.split('/')).not.to.include('..');
          }
        }
      }
    });
  });

  describe('validateTemplate', () => {
    it('accepts templates made of known variables, literal text and folders', () => {
      for (const t of ['', DEFAULT_FILENAME_TEMPLATE, '{domain}/{yyyy}/{mm}/{id}', 'shot {shot} of {url}', '../{id}', 'a{b', `${'x'.repeat(MAX_TEMPLATE_LENGTH)}`]) {
        expect(validateTemplate(t), t).to.equal(null);
      }
    });

    it('names the unknown variables', () => {
      const message = validateTemplate('{id}-{hostname}-{ID}-{hostname}');
      expect(message).to.match(/^unknown variables \{hostname\}, \{ID\}; known: \{id\}, \{domain\}/);
      expect(validateTemplate('{}')).to.match(/^unknown variable \{\}/);
    });

    it('refuses control characters, more folder levels than allowed and over-long templates', () => {
      expect(validateTemplate('a\nb')).to.equal('must not contain control characters');
      expect(validateTemplate('a/b/c/d/e')).to.equal(`may have at most ${MAX_FOLDERS} folder levels`);
      expect(validateTemplate('a/./b/../c/d')).to.equal(null, 'dot segments are removed, so they do not count');
      expect(validateTemplate('a/b/c/')).to.equal(null);
      expect(validateTemplate('a/b/c/d/')).to.equal(`may have at most ${MAX_FOLDERS} folder levels`, 'the injected id is a fifth segment');
      expect(validateTemplate('a/b/c/{id}/')).to.equal(null);
      expect(validateTemplate('x'.repeat(MAX_TEMPLATE_LENGTH + 1))).to.equal(`must be at most ${MAX_TEMPLATE_LENGTH} characters`);
    });
  });

  describe('isSafeRelativeName', () => {
    it('refuses what the renderer never produces', () => {
      for (const name of ['', '/a', 'a/', 'a//b', '..', 'a/../b', '.a', 'a.', ' a', 'a\\b', 'a\u0000b', 'a:b', 'con', 'a/b/c/d/e', 'x'.repeat(MAX_SEGMENT_BYTES + 1), 'cafe\u0301']) {
        expect(isSafeRelativeName(name), JSON.stringify(name)).to.equal(false);
      }
      for (const name of ['a', 'a/b', '4711-www.example.com', 'a b', 'x'.repeat(MAX_SEGMENT_BYTES)]) expect(isSafeRelativeName(name), name).to.equal(true);
    });
  });
});
