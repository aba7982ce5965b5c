import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { TestSite } from '../support/test-site.js';

/** The test site is on 127.0.0.1: captures allow private targets unless a test says otherwise. */
function capture(args: string[], env: Record<string, string> = { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true' }): Promise<CliRun> {
  return runCli(['capture', ...args], env);
}

/** `shotfarm capture`: how an operator checks a browser machine, for every browser and driver here. */
describe('shotfarm capture (one-off local capture)', function () {
  this.timeout(180_000);
  let site: TestSite;
  let grid: SeleniumGrid;
  let dir: string;
  before(async () => {
    site = await TestSite.start();
    grid = await SeleniumGrid.start(localGridOptions());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-capture-'));
  });
  after(async () => {
    await grid?.stop();
    await site?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const cases: [string, string[]][] = [
    ['playwright × chrome', ['--browser', 'chrome']],
    ['playwright × firefox', ['--browser', 'firefox']],
    ['playwright × brave', ['--browser', 'brave']],
    ['selenium × chrome', ['--browser', 'chrome', '--driver', 'selenium']],
  ];
  for (const [name, flags] of cases) {
    it(`${name}: writes the image and the requested outputs, exit 0`, async () => {
      const out = path.join(dir, `${name.replace(/\W+/g, '-')}.png`);
      const extra = name.startsWith('selenium') ? ['--grid-url', grid.url] : [];
      const res = await capture([site.url('/links.html'), '-o', out, ...flags, ...extra, '--screen_width', '800', '--screen_height', '600', '--html']);
      expect(res.code, res.stderr).to.equal(0);
      const summary = JSON.parse(res.stdout);
      expect(summary).to.include({ status: 'finished', response_code: 200 });
      expect(summary.browser).to.be.a('string').and.not.equal('');
      if (name.endsWith('brave')) expect(summary.browser).to.include('brave emulation');
      expect(await sharp(out).metadata()).to.include({ width: 800, height: 600, format: 'png' });
      expect(fs.readFileSync(out.replace(/\.png$/, '.html'), 'utf8')).to.include('<a');
    });
  }

  it('exits 1 with a clear message for an unreachable page and for an invalid option', async () => {
    const unreachable = await capture(['http://127.0.0.1:9/', '-o', path.join(dir, 'x.png')]);
    expect(unreachable.code).to.equal(1);
    expect(JSON.parse(unreachable.stdout)).to.include({ status: 'error' });
    const invalid = await capture([site.url('/links.html'), '-o', path.join(dir, 'y.png'), '--delay', '99']);
    expect(invalid.code).to.equal(1);
    expect(invalid.stderr).to.match(/capture failed: delay must be a whole number from 0 to 60/);
  });

  it('honours SHOTFARM_ALLOW_PRIVATE_TARGETS=false: a private page is blocked, exit 1, and never reached', async () => {
    const blocked = await capture([site.url('/echo?cli=ssrf'), '-o', path.join(dir, 'ssrf.png')], { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false' });
    expect(blocked.code).to.equal(1);
    expect(JSON.parse(blocked.stdout).error).to.equal('Blocked: 127.0.0.1 resolves to 127.0.0.1, a loopback address; captures of private networks are disabled (SHOTFARM_ALLOW_PRIVATE_TARGETS)');
    expect(site.hits('/echo?cli=ssrf')).to.equal(0);
  });
});
