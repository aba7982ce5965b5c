import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import yauzl from 'yauzl';
import { freePort } from '../support/free-port.js';
import { CLI_PATH, runCli, type CliRun } from '../support/run-cli.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

/** The names of a ZIP's entries, read with a real unzip library. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/**
 * `shotfarm batch create|info|cancel|download` against `shotfarm serve` (the embedded service, a real
 * Chromium): the commands find the service and its key as an operator on that machine would, from PORT
 * and the data dir's bootstrap key, with no --api or --key.
 */
describe('shotfarm batch info, cancel and download against the embedded service', function () {
  this.timeout(240_000);
  let port: number;
  let dataDir: string;
  let workDir: string;
  let site: TestSite;
  let child: ReturnType<typeof spawn>;
  let exited: Promise<number | null>;
  const env = (): Record<string, string> => ({ LOG_LEVEL: 'silent', PORT: String(port), SHOTFARM_DATA_DIR: dataDir });
  const cli = (args: string[]): Promise<CliRun> => runCli(args, env(), 180_000);
  const key = (): string => fs.readFileSync(path.join(dataDir, 'bootstrap-key'), 'utf8').trim();
  const balance = async (): Promise<number> => ((await (await fetch(`http://127.0.0.1:${port}/api/v1/account/info?key=${key()}`)).json()) as { data: { balance: number } }).data.balance;

  /** Creates a batch from these URLs with `batch create` (not waiting) and returns its id. */
  async function createBatch(urls: string[], options: string[] = []): Promise<number> {
    const list = path.join(workDir, `urls-${Date.now()}.txt`);
    fs.writeFileSync(list, `${urls.join('\n')}\n`);
    const res = await cli(['batch', 'create', list, ...options]);
    expect(res.code, res.stderr).to.equal(0);
    return Number(/batch (\d+):/.exec(res.stdout)?.[1]);
  }

  before(async () => {
    port = await freePort();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-batch-cli-data-'));
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-batch-cli-work-'));
    site = await TestSite.start();
    child = spawn(process.execPath, [CLI_PATH, 'serve'], {
      env: {
        PATH: process.env.PATH ?? '',
        ...env(),
        HOST: '127.0.0.1',
        SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true',
        SHOTFARM_AGENT_BROWSERS: 'chrome',
        SHOTFARM_AGENT_SLOTS: '1',
      },
      stdio: 'ignore',
    });
    exited = new Promise((resolve) => child.once('exit', resolve));
    await until('the service to be ready', async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200, 90_000);
  });
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
    }
    await site?.close();
    for (const dir of [dataDir, workDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('download --wait shows progress and writes the ZIP; info prints the finished Batch; cancel of an ended batch changes nothing', async () => {
    const id = await createBatch([site.url('/echo?bcli=1'), site.url('/echo?bcli=2')], ['--html']);
    const zip = path.join(workDir, 'out.zip');
    const downloaded = await cli(['batch', 'download', String(id), '--wait', '-o', zip]);
    expect(downloaded.code, downloaded.stderr).to.equal(0);
    expect(downloaded.stderr).to.match(/\[#{30}\] 2\/2 \(0 failed\)\n$/);
    expect(downloaded.stdout).to.equal(`wrote ${zip} (${fs.statSync(zip).size} bytes)\n`);
    expect((await zipEntries(zip)).map((n) => path.extname(n)).sort()).to.deep.equal(['.html', '.html', '.png', '.png']);

    const info = await cli(['batch', 'info', String(id)]);
    expect(info.code, info.stderr).to.equal(0);
    expect(JSON.parse(info.stdout)).to.include({ id, status: 'finished', count: 2, processed: 2, failed: 0, error: '' });
    expect(info.stderr).to.equal(`[${'#'.repeat(30)}] 2/2 (0 failed) finished\n`);

    const charged = await balance();
    const cancelled = await cli(['batch', 'cancel', String(id)]);
    expect(cancelled.code, cancelled.stderr).to.equal(0);
    expect(JSON.parse(cancelled.stdout)).to.include({ id, status: 'finished', processed: 2 });
    expect(await balance()).to.equal(charged);

    // The default output name, in the working directory of the command.
    const byDefault = await cli(['batch', 'download', String(id)]);
    expect(byDefault.code, byDefault.stderr).to.equal(0);
    const defaultFile = path.resolve(`batch-${id}.zip`);
    try {
      expect(byDefault.stdout).to.equal(`wrote batch-${id}.zip (${fs.statSync(defaultFile).size} bytes)\n`);
    } finally {
      fs.rmSync(defaultFile, { force: true });
    }
  });

  it('cancel stops a running batch: it ends in error, its screenshots not captured cost nothing, and download says what it holds', async () => {
    const before = await balance();
    // One slot and a 30 s delay each (a batch's most): the first is in the browser, the others wait in the queue.
    const id = await createBatch([site.url('/echo?slow=1'), site.url('/echo?slow=2'), site.url('/echo?slow=3')], ['--delay', '30']);
    const partial = path.join(workDir, 'partial.zip');
    const running = await cli(['batch', 'download', String(id), '-o', partial]);
    expect(running.code, running.stderr).to.equal(0);
    const held = Number(/^batch \d+ is still running: the ZIP holds the (\d+) screenshot\(s\) finished so far \(--wait waits for the end\)\n$/.exec(running.stderr)?.[1]);
    expect((await zipEntries(partial)).length).to.equal(held);

    const cancelled = await cli(['batch', 'cancel', String(id)]);
    expect(cancelled.code, cancelled.stderr).to.equal(0);
    const batch = JSON.parse(cancelled.stdout) as { processed: number; failed: number };
    expect(batch).to.include({ id, status: 'error', error: 'Batch cancelled by the user', count: 3 });
    // On a loaded machine the first may finish before the cancel arrives; the others certainly do not.
    expect(batch.processed).to.be.at.most(1);
    expect(cancelled.stderr).to.equal(`batch ${id}: error: Batch cancelled by the user (${batch.processed} captured, ${batch.failed} failed of 3)\n`);
    const info = JSON.parse((await cli(['batch', 'info', String(id)])).stdout) as { status: string };
    expect(info.status).to.equal('error');
    expect(before - (await balance()), 'only what was captured before the cancel is charged (1 credit each)').to.equal(batch.processed);
  });

  it('a batch that does not exist, a bad id, a wrong key and an unreachable API each end with a clear message and a non-zero code', async () => {
    expect(await cli(['batch', 'info', '99999999'])).to.deep.include({ code: 1, stdout: '', stderr: 'shotfarm: batch 99999999: Batch not found\n' });
    expect(await cli(['batch', 'cancel', '99999999'])).to.deep.include({ code: 1, stderr: 'shotfarm: batch 99999999: Batch not found\n' });
    const notAnId = await cli(['batch', 'download', 'latest']);
    expect(notAnId.code).to.equal(1);
    expect(notAnId.stderr).to.match(/value 'latest' is invalid for argument 'id'\. must be a whole number of at least 1/);
    const wrongKey = await cli(['batch', 'info', '1', '--key', 'sf_not_a_key']);
    expect(wrongKey.code).to.equal(1);
    expect(wrongKey.stderr).to.match(/^shotfarm: batch 1: .*(key|auth)/i);
    const closed = await freePort();
    const unreachable = await cli(['batch', 'info', '1', '--api', `http://127.0.0.1:${closed}`]);
    expect(unreachable).to.deep.include({ code: 1, stdout: '' });
    expect(unreachable.stderr).to.equal(`shotfarm: batch 1: cannot reach the API at http://127.0.0.1:${closed} (ECONNREFUSED); is shotfarm running there? (--api URL)\n`);
    const noKey = await runCli(['batch', 'info', '1'], { LOG_LEVEL: 'silent', SHOTFARM_DATA_DIR: workDir });
    expect(noKey).to.deep.include({ code: 2, stderr: 'shotfarm: give an API key with --key (or SHOTFARM_BOOTSTRAP_KEY)\n' });
  });
});
