import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { repoPath } from '../support/repo-path.js';
import { Api, logsOf, measured, pngFacts, podman, poll, printedKey, publishedPort, TEST_IMAGE, untilHealthy } from './podman.js';

const run = promisify(execFile);

/**
 * The farm of compose.yaml, started with podman-compose and the test override (s3rver in place of MinIO, a
 * site to capture): the api answers with its printed key, both browsers capture through the agents, agents
 * scale from one to three, and an agent killed mid-capture loses no capture and charges none twice.
 * make test-containers runs it (after build-image.sh).
 */
describe('compose farm (compose.yaml with podman-compose)', function () {
  this.timeout(600_000);
  const project = `sftest${process.pid}`;
  let agents = 1;
  let api: Api;

  /** podman-compose on this project; SHOTFARM_AGENTS is the replica count podman-compose reads (it has no --scale). */
  const compose = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('podman-compose', ['-p', project, '-f', 'compose.yaml', '-f', 'test/containers/compose.test.yaml', ...args], {
      cwd: repoPath('compose.yaml').replace(/\/compose\.yaml$/, ''),
      // A host port the system picks, on loopback only: the tests of other runs may hold 8080.
      env: { ...process.env, SHOTFARM_IMAGE: TEST_IMAGE, SHOTFARM_PORT: '127.0.0.1:', SHOTFARM_AGENTS: String(agents) },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  };
  const container = (service: string, n = 1): string => `${project}_${service}_${n}`;
  const hostOf = async (name: string): Promise<string> => podman(['inspect', '--format', '{{.Config.Hostname}}', name]);
  const nodes = async (): Promise<{ host: string; inFlight: number }[]> => api.get('/admin/nodes');

  before(async () => {
    const started = Date.now();
    await compose('up', '-d', '--no-build');
    measured('compose up to api healthy (cold: empty volumes, 1 agent)', `${((await untilHealthy(container('api'), started)) / 1000).toFixed(1)} s`);
    api = new Api(`http://127.0.0.1:${await publishedPort(container('api'))}`, await printedKey(container('api')));
    await poll('the first agent to join', async () => (await nodes()).length === 1, 180_000);
    measured('compose up to the first agent taking jobs', `${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  after(async () => {
    await compose('down', '-v').catch((err: unknown) => process.stdout.write(`compose down: ${String(err)}\n`));
    // podman-compose 1.0.3 leaves the project's network.
    await podman(['network', 'rm', '-f', `${project}_default`]).catch(() => undefined);
  });

  it('prints an API key whose account can see the farm', async () => {
    expect(api.key).to.match(/^sf_/);
    expect(await logsOf(container('api'))).to.match(/shotfarm is running at http:\/\/localhost:8080/);
    expect((await api.get('/account/info')).balance).to.be.above(0);
  });

  it('takes screenshots in Chromium and Firefox through the agents', async () => {
    const started = Date.now();
    const ids = [await api.create('http://site:8000/', 'chrome'), await api.create('http://site:8000/', 'firefox')];
    const records = await api.ended(ids);
    measured('chrome + firefox captures through the farm', `${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(records.map((r) => r.status)).to.deep.equal(['finished', 'finished']);
    expect(records[0]!.browser_info).to.match(/chrom/i);
    expect(records[1]!.browser_info).to.match(/firefox/i);
    for (const id of ids) {
      const png = await pngFacts(await api.image(id), 640, 300);
      expect(png).to.deep.include({ format: 'png', width: 1280, height: 800 });
      expect(png.rgb[0]).to.be.above(200); // the red band
      expect((await pngFacts(await api.image(id), 640, 500)).rgb[2]).to.be.above(150); // the blue band
    }
  });

  it('scales agents from 1 to 3, and the farm lists three nodes (GET /admin/nodes and `shotfarm nodes`)', async () => {
    agents = 3;
    const started = Date.now();
    await compose('up', '-d', '--no-build');
    const hosts = (await Promise.all([1, 2, 3].map((n) => hostOf(container('agent', n))))).sort();
    // Polled, not read once: on a loaded machine a node that misses three heartbeats drops out for a moment.
    await poll('the three agents in GET /admin/nodes', async () => JSON.stringify((await nodes()).map((n) => n.host).sort()) === JSON.stringify(hosts), 240_000);
    measured('scale 1 → 3 to three nodes listed', `${((Date.now() - started) / 1000).toFixed(1)} s`);
    const listed = await poll(
      'the three agents in `shotfarm nodes`',
      async () => {
        const out = await podman(['exec', container('api'), 'shotfarm', 'nodes']);
        return hosts.every((host) => out.includes(host)) ? out : null;
      },
      60_000,
    );
    expect(listed.split('\n').filter(Boolean)).to.have.length(3);
  });

  it('runs the browsers as the unprivileged node user', async () => {
    const rows = (await podman(['top', container('agent'), 'user', 'args'])).split('\n').slice(1);
    expect(rows.some((r) => r.includes('/usr/lib/chromium/chromium'))).to.equal(true);
    for (const row of rows) expect(row.split(/\s+/)[0], row).to.equal('node');
  });

  it('loses no capture and charges none twice when an agent is killed mid-capture', async () => {
    const before = (await api.get('/account/info')).balance as number;
    const ids: number[] = [];
    // Six pages that answer after 6 s: three agents with two slots hold them all at once.
    for (let n = 0; n < 6; n += 1) ids.push(await api.create(`http://site:8000/slow?ms=6000&n=${n}`, 'chrome'));
    const busy = await poll('an agent with captures in flight', async () => (await nodes()).find((n) => n.inFlight > 0), 60_000);
    const hosts = await Promise.all([1, 2, 3].map((n) => hostOf(container('agent', n))));
    const victim = container('agent', hosts.indexOf(busy.host) + 1);
    const killed = Date.now();
    // Under load podman may give up waiting for the exit record of a container it did kill: the state tells.
    await podman(['kill', victim]).catch(() => undefined);
    await poll(`${victim} to be dead`, async () => (await podman(['inspect', '--format', '{{.State.Running}}', victim])) === 'false', 60_000);
    const records = await api.ended(ids, 240_000);
    measured(`agent killed with ${busy.inFlight} capture(s) in flight; all 6 ended`, `${((Date.now() - killed) / 1000).toFixed(1)} s after the kill`);
    expect(records.map((r) => r.status)).to.deep.equal(Array(6).fill('finished'));
    expect((await api.get('/account/info')).balance).to.equal(before - 6);
  });
});
