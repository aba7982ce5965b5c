import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { repoPath } from '../support/repo-path.js';
import { Api, logsOf, measured, pngFacts, podman, printedKey, publishedPort, startSite, TEST_IMAGE, untilHealthy } from './podman.js';

/**
 * The image built from the repository's Dockerfile (make test-image; CI runs it): who it runs as, its Node,
 * its size, and the default role (`serve`) taking a screenshot and stopping cleanly on SIGTERM.
 */

// Measured 1.74 GB (Chromium 350 MB, Firefox ESR 300 MB, their and ffmpeg's libraries 490 MB, node_modules
// 200 MB, fonts 100 MB): the limit catches a build that starts carrying caches, dev dependencies or docs.
const MAX_IMAGE_BYTES = 2.0e9;

/** `^20.19.0 || ^24.0.0` (the only form package.json uses): does `version` (v24.21.0) fall in it? */
function inCaretRanges(ranges: string, version: string): boolean {
  const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number) as [number, number, number];
  return ranges.split('||').some((range) => {
    const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(range);
    if (!m) throw new Error(`engines range "${range}" is not of the ^x.y.z form this check reads`);
    const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return major === a && (minor > b || (minor === b && patch >= c));
  });
}

describe('container image (Dockerfile)', function () {
  this.timeout(300_000);
  const run = `shotfarm-image-test-${process.pid}`;

  it('runs as the unprivileged node user, not root', async () => {
    expect(await podman(['image', 'inspect', '--format', '{{.Config.User}}', TEST_IMAGE])).to.equal('node');
    expect(await podman(['run', '--rm', TEST_IMAGE, 'id', '-u'])).to.equal('1000');
  });

  it('runs Node 24, and both it and the Node running these tests are versions package.json "engines" declares', async () => {
    const engines = (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const inImage = await podman(['run', '--rm', TEST_IMAGE, 'node', '--version']);
    measured('Node in the image', inImage);
    expect(inImage).to.match(/^v24\./);
    expect(inCaretRanges(engines, inImage), `${inImage} in ${engines}`).to.equal(true);
    expect(inCaretRanges(engines, process.version), `${process.version} in ${engines}`).to.equal(true);
    expect(inCaretRanges(engines, 'v18.20.0')).to.equal(false);
  });

  it(`is smaller than ${MAX_IMAGE_BYTES / 1e9} GB`, async () => {
    const bytes = Number(await podman(['image', 'inspect', '--format', '{{.Size}}', TEST_IMAGE]));
    measured('image size', `${(bytes / 1e9).toFixed(2)} GB`);
    expect(bytes).to.be.above(0).and.below(MAX_IMAGE_BYTES);
  });

  describe('the default role, serve (all in one)', () => {
    const network = `${run}-net`;
    const server = `${run}-serve`;

    before(async () => {
      await podman(['network', 'create', network]);
      await startSite(`${run}-site`, network);
    });

    after(async () => {
      await podman(['rm', '-f', '-t', '0', server, `${run}-site`]).catch(() => undefined);
      await podman(['network', 'rm', '-f', network]).catch(() => undefined);
    });

    it('becomes healthy, prints a key, takes a Chromium screenshot, and exits 0 on SIGTERM', async () => {
      const started = Date.now();
      await podman(['run', '-d', '--name', server, '--network', network, '-p', '127.0.0.1::8080', '-e', 'SHOTFARM_PRIVATE_TARGET_ALLOWLIST=site', TEST_IMAGE]);
      measured('serve: start to healthy', `${((await untilHealthy(server, started)) / 1000).toFixed(1)} s`);
      const api = new Api(`http://127.0.0.1:${await publishedPort(server)}`, await printedKey(server));

      const id = await api.create('http://site:8000/', 'chrome');
      const [record] = await api.ended([id]);
      expect(record!.status).to.equal('finished');
      const png = await pngFacts(await api.image(id), 640, 300);
      expect(png).to.deep.include({ format: 'png', width: 1280, height: 800 });
      expect(png.rgb[0]).to.be.above(200); // the red band (#e4002b)
      expect(png.rgb[2]).to.be.below(80);

      const stopping = Date.now();
      await podman(['stop', '-t', '30', server]);
      measured('serve: SIGTERM to exit', `${((Date.now() - stopping) / 1000).toFixed(1)} s`);
      expect(await podman(['inspect', '--format', '{{.State.ExitCode}}', server])).to.equal('0');
      expect(await logsOf(server)).to.match(/SIGTERM received, stopping/);
    });
  });
});
