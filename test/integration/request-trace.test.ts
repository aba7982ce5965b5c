import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createThrowawayPostgres } from '../support/databases.js';
import { CLI_PATH } from '../support/run-cli.js';
import { S3RVER_CREDENTIALS, startS3rver, type RunningS3rver } from '../support/s3rver.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

type LogLine = Record<string, any>;

/** The messages of a record's ending: the control plane logs exactly one of them per record. */
const OUTCOME_MESSAGES = ['screenshot finished', 'screenshot ended with an error', 'screenshot cancelled'];

/** A shotfarm process whose JSON log lines (stdout) are kept, parsed, as it writes them. */
class LoggedProcess {
  readonly lines: LogLine[] = [];
  readonly exited: Promise<number | null>;
  private text = '';

  constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', resolve));
    let partial = '';
    child.stdout!.on('data', (d: Buffer) => {
      this.text += d.toString();
      partial += d.toString();
      const complete = partial.split('\n');
      partial = complete.pop() ?? '';
      for (const line of complete) if (line.startsWith('{')) this.lines.push(JSON.parse(line) as LogLine);
    });
  }

  /** The first match of `re` in everything the process printed (the start banner is plain text). */
  async printed(re: RegExp, what: string): Promise<string> {
    return until(what, async () => re.exec(this.text)?.[1], 90_000);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(-(this.child.pid as number), 'SIGKILL');
        } catch {
          // already gone
        }
      }, 30_000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

const start = (args: string[], env: Record<string, string>): LoggedProcess =>
  new LoggedProcess(
    spawn(process.execPath, [CLI_PATH, ...args], {
      // Its own process group, so a process that does not stop is killed with its browsers.
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true', ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );

/** Creates one capture with a request id of ours and waits for it to end; returns the record. */
async function traceOneCapture(base: string, key: string, site: TestSite, requestId: string): Promise<Record<string, any>> {
  const created = await fetch(`${base}/api/v1/screenshot/create?key=${key}&browser=chrome&url=${encodeURIComponent(site.url('/target.html'))}`, { headers: { 'X-Request-Id': requestId } });
  expect(created.status).to.equal(200);
  expect(created.headers.get('x-request-id')).to.equal(requestId);
  const id = ((await created.json()) as { data: { id: number }[] }).data[0]!.id;
  const info = await until(
    'the capture to end',
    async () => {
      const body = (await (await fetch(`${base}/api/v1/screenshot/info?key=${key}&id=${id}&wait=60`)).json()) as { data: Record<string, any> };
      expect(body.data, JSON.stringify(body)).to.be.an('object');
      return body.data.status === 'processing' ? null : body.data;
    },
    120_000,
  );
  expect(info.status, JSON.stringify(info)).to.equal('finished');
  return info;
}

/** What both modes promise: one id from the access log line through the agent's lines to the record. */
function expectTraced(apiLines: LogLine[], agentLines: LogLine[], record: Record<string, any>, requestId: string, key: string): void {
  expect(record.request_id).to.equal(requestId);
  const access = apiLines.filter((l) => l.msg === 'request completed' && l.request_id === requestId);
  expect(access, 'one access log line for the create request').to.have.length(1);
  expect(access[0]).to.include({ method: 'GET', status: 200 });
  expect(access[0]!.url).to.match(/^\/api\/v1\/screenshot\/create\?/);
  // The API key in the query is a credential: its value never reaches the log.
  expect(access[0]!.url).to.include('key=%5Bredacted%5D').and.not.include(key);
  expect(access[0]!.ms).to.be.a('number');
  const attempts = agentLines.filter((l) => l.msg === 'capture attempt done; result published' && l.id === record.id);
  expect(attempts, "the agent's line about the job").to.have.length(1);
  expect(attempts[0]).to.include({ request_id: requestId, status: 'finished', browser: 'chrome' });
  const outcomes = apiLines.filter((l) => OUTCOME_MESSAGES.includes(l.msg) && l.id === record.id);
  expect(outcomes, "the capture's outcome, logged exactly once").to.have.length(1);
  expect(outcomes[0]).to.include({ msg: 'screenshot finished', request_id: requestId, status: 'finished', node: record.node_id });
}

describe('request tracing in embedded mode (shotfarm serve: access log, agent lines, record)', function () {
  this.timeout(180_000);
  const key = `sf_${randomBytes(18).toString('base64url')}`;
  let site: TestSite;
  let dataDir: string;
  let serve: LoggedProcess;
  let base: string;

  before(async () => {
    site = await TestSite.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-trace-'));
    serve = start(['serve'], { SHOTFARM_DATA_DIR: dataDir, SHOTFARM_BOOTSTRAP_KEY: key, SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '1' });
    base = await serve.printed(/running at (http:\/\/\S+)/, 'serve to print its URL');
  });

  after(async () => {
    await serve?.stop();
    await site?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("one request id leads from the access log line through the agent's line to the record; the outcome is logged once", async () => {
    const requestId = `trace-embedded-${randomBytes(4).toString('hex')}`;
    const record = await traceOneCapture(base, key, site, requestId);
    // The access line is written when the response is sent: wait for the info request's line too.
    await until('the info request to be logged', async () => serve.lines.some((l) => l.msg === 'request completed' && typeof l.url === 'string' && l.url.startsWith('/api/v1/screenshot/info')));
    expectTraced(serve.lines, serve.lines, record, requestId, key);
  });

  it('a request without an id of its own gets one, in its answer header and its access log line', async () => {
    const res = await fetch(`${base}/api/v1/account/info?key=${key}`);
    expect(res.status).to.equal(200);
    const id = res.headers.get('x-request-id');
    expect(id).to.match(/^[0-9a-f-]{36}$/);
    const line = await until('the access line', async () => serve.lines.find((l) => l.request_id === id && l.msg === 'request completed'));
    expect(line).to.include({ status: 200, method: 'GET' });
  });

  it('a refused request is logged with the status it got, and probes only at debug level', async () => {
    const requestId = `trace-refused-${randomBytes(4).toString('hex')}`;
    const res = await fetch(`${base}/api/v1/screenshot/info?key=sf_wrong&id=1`, { headers: { 'X-Request-Id': requestId } });
    expect(res.status).to.equal(401);
    const line = await until('the access line', async () => serve.lines.find((l) => l.request_id === requestId));
    expect(line).to.include({ status: 401, msg: 'request completed' });
    expect((await fetch(`${base}/healthz`)).status).to.equal(200);
    await fetch(`${base}/metrics`);
    // Written after the probes' answers: had they been logged at info, they would come before it.
    const marker = `trace-marker-${randomBytes(4).toString('hex')}`;
    await fetch(`${base}/api/v1/account/info?key=${key}`, { headers: { 'X-Request-Id': marker } });
    await until('the marker line', async () => serve.lines.some((l) => l.request_id === marker));
    expect(serve.lines.filter((l) => l.url === '/healthz' || l.url === '/metrics')).to.deep.equal([]);
  });
});

describe('request tracing in distributed mode (shotfarm api + shotfarm agent over NATS, Postgres and S3)', function () {
  this.timeout(240_000);
  const prefix = `sftrace_${randomBytes(4).toString('hex')}`;
  const key = `sf_${randomBytes(18).toString('base64url')}`;
  let site: TestSite;
  let s3: RunningS3rver;
  let pg: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let api: LoggedProcess;
  let agent: LoggedProcess;
  let base: string;

  before(async () => {
    site = await TestSite.start();
    s3 = await startS3rver();
    pg = await createThrowawayPostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-trace-'));
    const shared = {
      NATS_URL: 'nats://127.0.0.1:4222',
      SHOTFARM_NATS_PREFIX: prefix,
      SHOTFARM_DATA_DIR: dataDir,
      SHOTFARM_HEARTBEAT_SECONDS: '1',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: S3RVER_CREDENTIALS.accessKey,
      S3_SECRET_KEY: S3RVER_CREDENTIALS.secretKey,
      S3_BUCKET: 'shotfarm-test',
    };
    api = start(['api'], { ...shared, DATABASE_URL: pg.url, SHOTFARM_BOOTSTRAP_KEY: key, SHOTFARM_BOOTSTRAP_CREDITS: '100' });
    agent = start(['agent', '--browsers', 'chrome', '--slots', '1'], { ...shared, SHOTFARM_NODE_ID: 'trace-agent' });
    base = await api.printed(/running at (http:\/\/\S+)/, 'the API to print its URL');
    await agent.printed(/metrics at (http:\/\/127\.0\.0\.1:\d+)/, 'the agent to start');
  });

  after(async () => {
    await agent?.stop();
    await api?.stop();
    await pg?.drop();
    await s3?.stop();
    await site?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("the agent process logs the job with the request id of the API's access line, and the record stores it", async () => {
    const requestId = `trace-nats-${randomBytes(4).toString('hex')}`;
    const record = await traceOneCapture(base, key, site, requestId);
    expect(record.node_id).to.equal('trace-agent');
    await until('the info request to be logged', async () => api.lines.some((l) => l.msg === 'request completed' && typeof l.url === 'string' && l.url.startsWith('/api/v1/screenshot/info')));
    expectTraced(api.lines, agent.lines, record, requestId, key);
    // The agent is another process: the API logged no attempt, the agent no access line nor outcome.
    expect(api.lines.filter((l) => l.msg === 'capture attempt done; result published')).to.deep.equal([]);
    expect(agent.lines.filter((l) => l.request_id === requestId && l.msg !== 'capture attempt done; result published')).to.deep.equal([]);
  });
});
