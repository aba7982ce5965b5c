import { expect } from 'chai';
import { configProblems } from '../support/config-problems.js';
import { loadConfig } from '../../core/config/load-config.js';
import { readFileSync } from 'node:fs';
import { SETTING, SETTINGS } from '../../core/config/settings.js';
import { assertPrefix } from '../../grid/nats/names.js';
import { SETTINGS_TABLE_END, SETTINGS_TABLE_START, settingsMarkdownTable } from '../../core/config/settings-table.js';
import { repoPath } from '../support/repo-path.js';

describe('configuration (unit)', () => {
  it('has the documented defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c).to.include({ port: 8080, databaseUrl: null, natsUrl: null, s3: null, rateLimitPerMinute: 600, allowPrivateTargets: false, bootstrapCredits: 1000, cacheDefaultSeconds: 86400 });
    expect(c.dataDir).to.match(/\/data$/);
    expect(c.pricing).to.deep.equal({ base: 1, full_page: 1, pdf: 1, video: 2, html: 0, markdown: 0, metadata: 0, extra_shot: 1 });
  });

  it('names every invalid setting at once', () => {
    const problems = configProblems({
      PORT: 'http',
      DATABASE_URL: 'mysql://x',
      SHOTFARM_ALLOW_PRIVATE_TARGETS: 'perhaps',
      JWT_SECRET: 'short',
      SHOTFARM_PRICING: '{"base":-1}',
      S3_ENDPOINT: 'http://s3.local',
      LOG_LEVEL: 'loud',
      SHOTFARM_BOOTSTRAP_KEY: 'abc',
    });
    for (const name of ['PORT', 'DATABASE_URL', 'SHOTFARM_ALLOW_PRIVATE_TARGETS', 'JWT_SECRET', 'SHOTFARM_PRICING', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'LOG_LEVEL', 'SHOTFARM_BOOTSTRAP_KEY']) {
      expect(
        problems.some((p) => p.startsWith(`${name}:`)),
        `${name} in ${problems.join(' | ')}`,
      ).to.equal(true);
    }
  });

  it('encodes Chromium PNGs fast unless told small, and refuses anything else', () => {
    expect(loadConfig({}).agent.pngEncoding).to.equal('fast');
    expect(loadConfig({ SHOTFARM_PNG_ENCODING: 'Small' }).agent.pngEncoding).to.equal('small');
    expect(configProblems({ SHOTFARM_PNG_ENCODING: 'tiny' })).to.deep.equal(['SHOTFARM_PNG_ENCODING: must be fast or small (got "tiny")']);
  });

  it('reads every setting it documents', () => {
    const c = loadConfig({
      PORT: '9000',
      SHOTFARM_DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      NATS_URL: 'nats://n:4222',
      S3_ENDPOINT: 'http://s3:9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      S3_BUCKET: 'bk',
      S3_REGION: 'eu',
      SHOTFARM_BOOTSTRAP_KEY: 'bootstrap-key-0123456789',
      SHOTFARM_BOOTSTRAP_CREDITS: '5',
      SHOTFARM_RATE_LIMIT_PER_MINUTE: '7',
      SHOTFARM_ALLOW_PRIVATE_TARGETS: 'yes',
      JWT_SECRET: 'x'.repeat(32),
      SHOTFARM_PUBLIC_URL: 'https://shots.example/',
      SHOTFARM_PRICING: '{"video":5}',
      SHOTFARM_CACHE_DEFAULT_SECONDS: '60',
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      CAPTCHA_SECRET: 'captcha-secret',
      HOST: '127.0.0.1',
    });
    expect(c).to.deep.include({
      port: 9000,
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://u@h/db',
      natsUrl: 'nats://n:4222',
      bootstrapKey: 'bootstrap-key-0123456789',
      bootstrapCredits: 5,
      rateLimitPerMinute: 7,
      allowPrivateTargets: true,
      publicUrl: 'https://shots.example',
      cacheDefaultSeconds: 60,
      logLevel: 'debug',
      production: true,
      host: '127.0.0.1',
    });
    expect(c.s3).to.deep.equal({ endpoint: 'http://s3:9000', accessKey: 'a', secretKey: 'b', bucket: 'bk', region: 'eu' });
    expect(c.pricing.video).to.equal(5);
    expect(SETTINGS.map((s) => s.name)).to.include.members([
      'PORT',
      'SHOTFARM_DATA_DIR',
      'DATABASE_URL',
      'NATS_URL',
      'S3_ENDPOINT',
      'S3_ACCESS_KEY',
      'S3_SECRET_KEY',
      'S3_BUCKET',
      'S3_REGION',
      'SHOTFARM_BOOTSTRAP_KEY',
      'SHOTFARM_BOOTSTRAP_CREDITS',
      'SHOTFARM_RATE_LIMIT_PER_MINUTE',
      'SHOTFARM_ALLOW_PRIVATE_TARGETS',
      'JWT_SECRET',
      'SHOTFARM_PUBLIC_URL',
    ]);
  });
});

describe("the operators' settings table (docs/operators.md)", () => {
  it('is exactly the table generated from the settings declarations', () => {
    const doc = readFileSync(repoPath('docs/operators.md'), 'utf8');
    const start = doc.indexOf(SETTINGS_TABLE_START);
    const end = doc.indexOf(SETTINGS_TABLE_END);
    expect(start, "the table's start marker").to.be.greaterThan(-1);
    expect(doc.slice(start, end + SETTINGS_TABLE_END.length), 'regenerate it with `node dist/bin/shotfarm.js settings --markdown`').to.equal(settingsMarkdownTable());
  });

  it('has a row for every setting, with its default', () => {
    const table = settingsMarkdownTable();
    for (const s of SETTINGS) expect(table, s.name).to.include(`| \`${s.name}\` | \`${s.shownDefault}\` |`);
  });
});

describe('settings are declared once (core/config/settings.ts)', () => {
  /** The environment that gives every setting with a default text exactly that text. */
  const declaredDefaults = (): Record<string, string> => Object.fromEntries(SETTINGS.filter((s) => s.default !== null && s.default !== '').map((s) => [s.name, s.default as string]));

  it('every declared default is valid for its own parser', () => {
    for (const s of SETTINGS) expect(() => s.value(null), s.name).not.to.throw();
    expect(() => loadConfig(declaredDefaults()), 'the declared defaults, given explicitly').not.to.throw();
  });

  it('an empty environment gives the same configuration as the declared defaults given explicitly (no default copied into the loader)', () => {
    // A loader that falls back to a value of its own instead of the declaration's differs here.
    const { agent: absentAgent, ...absent } = loadConfig({});
    const { agent: givenAgent, ...given } = loadConfig(declaredDefaults());
    expect(given).to.deep.equal(absent);
    // The node id's absence means "<host>-<pid>", which no text says; everything else must match.
    expect({ ...givenAgent, nodeId: null }).to.deep.equal({ ...absentAgent, nodeId: null });
  });

  it('the loader reads only declared variables, and every declared one', () => {
    const read = new Set<string>();
    const everything = { ...declaredDefaults(), S3_ENDPOINT: 'http://s3.local', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b', SHOTFARM_PROXY_FR: 'http://proxy-fr:3128' };
    const env = new Proxy(everything, { get: (target, name: string) => (read.add(name), target[name as keyof typeof target]) });
    loadConfig(env);
    const declared = new Set(SETTINGS.map((s) => s.name));
    const undeclared = [...read].filter((n) => !declared.has(n) && n !== 'SHOTFARM_PROXY_FR');
    expect(undeclared, 'variables read without a declaration').to.deep.equal([]);
    const unread = [...declared].filter((n) => !read.has(n) && n !== SETTING.countryProxy.name);
    expect(unread, 'declarations the loader never reads').to.deep.equal([]);
  });

  it('checks the NATS prefix by the one rule the grid asserts', () => {
    const accepts = (use: () => unknown): boolean => {
      try {
        use();
        return true;
      } catch {
        return false;
      }
    };
    for (const prefix of ['shotfarm', 'sftest_0a1b2c3d', 't0a1b2c3d_12', 'a', `a${'b'.repeat(31)}`, `a${'b'.repeat(32)}`, '1abc', 'with-dash', 'dot.ted', '_x', 'sp ace']) {
      const grid = accepts(() => assertPrefix(prefix));
      const loader = accepts(() => loadConfig({ SHOTFARM_NATS_PREFIX: prefix }));
      expect(loader, prefix).to.equal(grid);
    }
  });
  it('blocks ads with the built-in filter list unless told other lists, and refuses a list it cannot read', () => {
    expect(loadConfig({}).agent.adFilterLists).to.deep.equal({ builtIn: true, files: [] });
    const fixture = repoPath('test/fixtures/filter-lists/house-ads.txt');
    expect(loadConfig({ SHOTFARM_AD_FILTER_LISTS: ` builtin , ${fixture}` }).agent.adFilterLists).to.deep.equal({ builtIn: true, files: [fixture] });
    expect(loadConfig({ SHOTFARM_AD_FILTER_LISTS: fixture }).agent.adFilterLists).to.deep.equal({ builtIn: false, files: [fixture] });
    expect(configProblems({ SHOTFARM_AD_FILTER_LISTS: 'builtin,/nowhere/easylist.txt' })).to.deep.equal(['SHOTFARM_AD_FILTER_LISTS: cannot read the filter list /nowhere/easylist.txt (ENOENT)']);
    expect(configProblems({ SHOTFARM_AD_FILTER_LISTS: repoPath('test/fixtures/filter-lists') })).to.deep.equal([
      `SHOTFARM_AD_FILTER_LISTS: cannot read the filter list ${repoPath('test/fixtures/filter-lists')} (not a file)`,
    ]);
    expect(configProblems({ SHOTFARM_AD_FILTER_LISTS: ' , ' })).to.deep.equal(['SHOTFARM_AD_FILTER_LISTS: must name at least one filter list (builtin or a file)']);
  });
});
