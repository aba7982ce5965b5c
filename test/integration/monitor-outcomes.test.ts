import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { expect } from 'chai';
import sharp from 'sharp';
import { agentResult } from '../support/capture-results.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { until } from '../support/wait-until.js';

/** Yearly: a monitor that only runs when a test asks (POST /monitor/run). */
const NEVER_ON_ITS_OWN = '0 0 1 1 *';

const post = (api: TestApi, path: string, key: string, body: unknown) => call(api.url, path, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Starts one run of a monitor; its screenshot id. */
async function startRun(api: TestApi, key: string, monitorId: number): Promise<{ runId: number; screenshotId: number }> {
  const res = await post(api, '/monitor/run', key, { id: monitorId });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { runId: res.body.data.id, screenshotId: res.body.data.screenshot_id };
}

/** The run as GET /monitor/runs answers it, once its screenshot ended and the comparison (if any) is done. */
function settledRun(api: TestApi, key: string, monitorId: number, runId: number): Promise<any> {
  return until(
    `run ${runId} to settle`,
    async () => {
      const runs = await call(api.url, `/monitor/runs?id=${monitorId}`, { key });
      const run = runs.body.data.find((r: any) => r.id === runId);
      return run && !['processing', 'comparing'].includes(run.status) ? run : null;
    },
    120_000,
  );
}

/**
 * A valid PNG of `width` × `height` white pixels at one bit each: a shot larger than any comparison reads,
 * made in a second (deflated rows of 0xff) where encoding as many RGB pixels would take minutes.
 */
function hugeWhitePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter method, no interlace
  const row = Buffer.alloc(1 + Math.ceil(width / 8), 0xff);
  row[0] = 0; // filter: none
  const rows = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)), { level: 1 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}

/** Peak resident memory of this process since the last reset (kB), from /proc. */
const peakRssKb = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]);
/** Starts a new peak: writing 5 to clear_refs resets VmHWM to the current resident size (Linux). */
const resetPeakRss = (): void => fs.writeFileSync('/proc/self/clear_refs', '5');
const rssKb = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]);

/**
 * Issue 25, monitors: a comparison that fails says so on its run (`error`, a plain sentence), never `finished`
 * and unchanged; shots above sharp's own pixel limit (268 M, 16,383²) are compared, in bounded memory.
 * The shots come as an agent's results through the real recorder (no agent: a page of this size would be
 * the pixel bomb of issue 25 itself); the stored images are real PNGs.
 */
describe('monitor runs: comparisons of very large shots, and failures that say why', function () {
  this.timeout(600_000);
  let api: TestApi;
  let owner: TestAccount;

  before(async () => {
    api = await startTestApi('pglite');
    owner = await api.account(1000);
  });
  after(async () => api?.stop());

  /** The run's screenshot finishes with `png` as its image, as an agent's result would finish it. */
  async function finishWith(screenshotId: number, png: Buffer): Promise<void> {
    const key = `screenshots/${screenshotId}/shot-1.png`;
    await api.parts.objects.put(key, png, { contentType: 'image/png', size: png.length });
    expect(await api.plane.recorder.apply(agentResult(screenshotId, { files: [{ kind: 'image', shot: 1, key, size: png.length, contentType: 'image/png' }] }))).to.equal('applied');
  }

  /** One run of the monitor whose screenshot finishes with `png`: the run once settled, and its screenshot. */
  async function runWithShot(monitorId: number, png: Buffer): Promise<{ run: any; screenshotId: number }> {
    const { runId, screenshotId } = await startRun(api, owner.key, monitorId);
    await finishWith(screenshotId, png);
    return { run: await settledRun(api, owner.key, monitorId, runId), screenshotId };
  }

  const smallWhitePng = (): Promise<Buffer> =>
    sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();

  it('two 2,000 × 140,000 shots (280 M pixels, above sharp’s default limit) are compared, the change reported, in bounded memory', async () => {
    const width = 2000;
    const height = 140_000;
    const page = () => sharp({ create: { width, height, channels: 3, background: '#ffffff' }, limitInputPixels: false });
    const block = await sharp({ create: { width, height: 20_000, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    const before = await page().png({ compressionLevel: 1 }).toBuffer();
    const after = await page()
      .composite([{ input: block, left: 0, top: 100_000 }])
      .png({ compressionLevel: 1 })
      .toBuffer();
    const monitor = (await post(api, '/monitor/create', owner.key, { url: 'https://example.test/tall', cron: NEVER_ON_ITS_OWN, threshold: 1 })).body.data;
    const first = await runWithShot(monitor.id, before);
    expect(first.run.status).to.equal('finished');

    const startKb = rssKb();
    resetPeakRss();
    const { run } = await runWithShot(monitor.id, after);
    const grewMb = (peakRssKb() - startKb) / 1024;
    expect(run, JSON.stringify(run)).to.include({ status: 'finished', error: '', changed: true, previous_screenshot_id: first.screenshotId });
    // A seventh of the page turned black.
    expect(run.change_ratio).to.be.closeTo(1 / 7, 0.01);
    expect(run.diff_url).to.be.a('string').and.not.equal('');
    // Decoded whole, the two shots alone would be 2.2 GB of RGBA; shrunk while read, the comparison stays at
    // its 16 M compared pixels (three RGBA buffers, 192 MB) and libvips' bands of rows: 290 MB measured alone.
    expect(grewMb, `the process grew by ${Math.round(grewMb)} MB while comparing`).to.be.below(600);
  });

  it('a shot above the pixels a comparison reads makes the run an error with a plain sentence, not finished and unchanged', async () => {
    const monitor = (await post(api, '/monitor/create', owner.key, { url: 'https://example.test/huge', cron: NEVER_ON_ITS_OWN })).body.data;
    await runWithShot(monitor.id, await smallWhitePng());
    const { run } = await runWithShot(monitor.id, hugeWhitePng(40_000, 30_000));
    expect(run, JSON.stringify(run)).to.include({ status: 'error', changed: false, change_ratio: null });
    expect(run.error).to.equal('The comparison could not be made: the new shot is 40000 × 30000 pixels, more than the 1,000,000,000 a comparison reads');
  });

  it('a shot that cannot be decoded makes the run an error saying so', async () => {
    const monitor = (await post(api, '/monitor/create', owner.key, { url: 'https://example.test/broken', cron: NEVER_ON_ITS_OWN })).body.data;
    const png = await smallWhitePng();
    await runWithShot(monitor.id, png);
    // The header says 400 × 300; the pixel data stops after a few bytes.
    const { run } = await runWithShot(monitor.id, png.subarray(0, 60));
    expect(run, JSON.stringify(run)).to.include({ status: 'error', changed: false });
    expect(run.error).to.match(/^The comparison could not be made: /);
  });
});

describe('monitor runs whose capture was blocked (the egress guard on, a real agent)', function () {
  this.timeout(240_000);
  let api: TestApi;
  let owner: TestAccount;
  let hits = 0;
  const privatePage = http.createServer((_req, res) => {
    hits++;
    res.end('private');
  });
  let site: { origin: string; stop(): Promise<void> };

  before(async () => {
    site = await listenOnLoopback(privatePage);
    api = await startTestApi('pglite', { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false', SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '1' }, { agent: true });
    owner = await api.account(1000);
  });
  after(async () => {
    await api?.stop();
    await site?.stop();
  });

  it("carry the capture's sentence as their error, not an empty one", async () => {
    // A page on a loopback address: refused by the guard (an address, no name to resolve), never reached.
    const monitor = (await post(api, '/monitor/create', owner.key, { url: `${site.origin}/private`, cron: NEVER_ON_ITS_OWN })).body.data;
    const { runId, screenshotId } = await startRun(api, owner.key, monitor.id);
    const run = await settledRun(api, owner.key, monitor.id, runId);
    const shot = (await call(api.url, `/screenshot/info?id=${screenshotId}`, { key: owner.key })).body.data;
    expect(shot.status).to.equal('error');
    expect(shot.error).to.match(/^Blocked: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/);
    expect(run, JSON.stringify(run)).to.include({ status: 'error', error: shot.error });
    expect(hits, 'the private page was reached').to.equal(0);
  });
});
