import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { CliProcesses, distributedFarmEnv, startedAgentUrl } from '../support/cli-processes.js';
import { startS3rver, type RunningS3rver } from '../support/s3rver.js';
import { startTestApi, type TestApi } from '../support/test-api.js';

const TOKEN = `mt_${randomBytes(18).toString('base64url')}`;

/** GET /metrics with these headers: status, the challenge header and the body as text. */
async function scrape(base: string, headers: Record<string, string> = {}): Promise<{ status: number; challenge: string | null; text: string }> {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, challenge: res.headers.get('www-authenticate'), text: await res.text() };
}

/** The three ways a scrape is refused, and the one way it is answered. */
async function expectProtected(base: string, apiKey?: string): Promise<void> {
  const attempts: Record<string, string>[] = [
    {},
    { Authorization: `Bearer ${TOKEN}x` },
    { Authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    ...(apiKey ? [{ 'X-API-KEY': apiKey }] : []),
  ];
  for (const headers of attempts) {
    const refused = await scrape(base, headers);
    expect(refused.status, JSON.stringify(headers)).to.equal(401);
    expect(refused.challenge).to.equal('Bearer realm="metrics"');
    expect(refused.text).not.to.include('shotfarm_');
    expect(JSON.parse(refused.text)).to.include({ success: false, code: 'INVALID_API_KEY' }).and.to.have.property('error').that.includes('SHOTFARM_METRICS_TOKEN');
  }
  const answered = await scrape(base, { Authorization: `Bearer ${TOKEN}` });
  expect(answered.status).to.equal(200);
  expect(answered.text).to.match(/^# HELP /m);
  expect(answered.text).to.include('process_resident_memory_bytes');
}

describe('/metrics behind SHOTFARM_METRICS_TOKEN (the API and an agent)', function () {
  this.timeout(180_000);

  describe('the API', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi('pglite', { SHOTFARM_METRICS_TOKEN: TOKEN });
    });
    after(() => api?.stop());

    it('answers 401 in the error envelope without the bearer token (an API key is not it), 200 with it', async () => {
      const acct = await api.account();
      await expectProtected(api.plane.url, acct.key);
    });

    it('keeps /healthz and /readyz open', async () => {
      expect((await fetch(`${api.plane.url}/healthz`)).status).to.equal(200);
      expect((await fetch(`${api.plane.url}/readyz`)).status).to.equal(200);
    });
  });

  describe('an agent (shotfarm agent over NATS and S3)', () => {
    let s3: RunningS3rver;
    let dataDir: string;
    let agentUrl: string;
    const processes = new CliProcesses(() => distributedFarmEnv({ natsPrefix: `sfmetrics_${randomBytes(4).toString('hex')}`, s3, bucket: 'shotfarm-metrics-test', dataDir }));

    before(async () => {
      s3 = await startS3rver();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-metrics-token-'));
      agentUrl = await startedAgentUrl(processes.start(['agent', '--browsers', 'chrome', '--slots', '1'], { PORT: '0', SHOTFARM_METRICS_TOKEN: TOKEN }));
    });
    after(async () => {
      await processes.stopAll();
      await s3?.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('answers 401 without the bearer token, 200 with it; /healthz stays open', async () => {
      await expectProtected(agentUrl);
      expect((await fetch(`${agentUrl}/healthz`)).status).to.equal(200);
    });
  });
});
