import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { repoPath } from '../support/repo-path.js';

const run = promisify(execFile);
const FIXTURES = repoPath('test/fixtures/suite-harness');
/** Where .mocharc.cjs is: its reporter and leak check are named relative to it. */
const ROOT = path.dirname(repoPath('.mocharc.cjs'));
const MOCHA = repoPath('node_modules/mocha/bin/mocha.js');

/**
 * The whole suite runs two files at a time in worker processes (.mocharc.cjs), where mocha hands a file's
 * events to the reporter in one burst once the file is done. Run that way on fixture files
 * (test/fixtures/suite-harness), with the suite's reporter and leak check: the reporter still names the
 * slowest files with their time and ends with the closing line CI reads, and a temp folder a file leaves
 * behind still fails the run, counted in that line.
 */
describe('the suite harness, two files at a time in worker processes', function () {
  this.timeout(120_000);
  /** the runs' own temp folder: the leak check's count is not disturbed by anything else on the machine */
  let tmp: string;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-harness-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  async function mocha(files: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const args = [MOCHA, '--parallel', '--jobs', '2', ...files.map((file) => path.join(FIXTURES, file))];
    try {
      const { stdout, stderr } = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, timeout: 100_000 });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it("names the slowest files with their tests' and hooks' time, then the leak check, then the closing line", async () => {
    const { code, stdout, stderr } = await mocha(['longer.test.js', 'shorter.test.js']);
    expect(code, stdout + stderr).to.equal(0);
    const slowest = /\nslowest files:\n\s+(\d+) s\s+(\S+)\n\s+(\d+) s\s+(\S+)\n/.exec(stdout);
    expect(slowest, stdout).to.not.equal(null);
    // 0.7 s of before hook and 0.8 s of test: at least 1 s once rounded, whatever the machine's load.
    expect(Number(slowest![1])).to.be.at.least(1);
    expect(slowest![2]).to.match(/longer\.test\.js$/);
    expect(slowest![4]).to.match(/shorter\.test\.js$/);
    expect(stdout).to.match(/leak check: no test process left; \d+ temp folder\(s\) of killed browsers removed as an agent start does; 0 left\n[\s\S]*slowest files:/);
    expect(stdout.endsWith('\n2 passed, 0 failed, 0 skipped\n'), stdout).to.equal(true);
  });

  it('fails the run when a file leaves a temp folder behind, and the closing line counts it', async () => {
    const { code, stdout, stderr } = await mocha(['leaves-temp.test.js', 'shorter.test.js']);
    expect(code, stdout + stderr).to.not.equal(0);
    expect(stdout).to.include('; 1 left\n');
    expect(stdout + stderr).to.match(/temp entries the tests left behind: shotfarm-left-by-a-test-\w+/);
    expect(stdout.endsWith('\n2 passed, 1 failed, 0 skipped\n'), stdout).to.equal(true);
  });

  it('prints a promise rejected after a file is over, and the worker that ran the file still reports it', async () => {
    const { code, stdout, stderr } = await mocha(['late-rejection.test.js', 'shorter.test.js', 'longer.test.js']);
    expect(code, stdout + stderr).to.equal(0);
    expect(stderr).to.include('UnhandledPromiseRejectionWarning: Error: late rejection from a stopped service');
    expect(stdout.endsWith('\n3 passed, 0 failed, 0 skipped\n'), stdout).to.equal(true);
  });
});
