import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import sharp from 'sharp';
import { offeredOptions } from '../../api/mcp/mcp-tool-inputs.js';
import { BROWSERS } from '../../core/capture-spec.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/**
 * The ajv the MCP SDK validates with (8, with draft 2020-12, the dialect the tools' schemas are written in):
 * the repository's own top-level ajv is eslint's 6, which knows draft-07 only.
 */
const sdkRequire = createRequire(path.resolve('node_modules/@modelcontextprotocol/sdk/dist/cjs/index.js'));
const Ajv2020 = (sdkRequire('ajv/dist/2020') as { default: new (o: object) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown } } }).default;

type Content = CallToolResult['content'][number];
const texts = (r: CallToolResult): string[] => r.content.filter((c): c is Extract<Content, { type: 'text' }> => c.type === 'text').map((c) => c.text);
const images = (r: CallToolResult): Extract<Content, { type: 'image' }>[] => r.content.filter((c): c is Extract<Content, { type: 'image' }> => c.type === 'image');
/** The JSON blocks of an answer (the record, the batch...), parsed. */
const jsonBlocks = (r: CallToolResult): Record<string, any>[] =>
  texts(r)
    .filter((t) => t.startsWith('{') || t.startsWith('['))
    .map((t) => JSON.parse(t) as Record<string, any>);
const CALL = { timeout: 240_000 };
/** The MCP Inspector's CLI (devDependency @modelcontextprotocol/inspector, 0.21.2: the 1.x and 2.x lines need Node 22). */
const INSPECTOR = path.resolve('node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');
const inspector = async (args: string[]): Promise<Record<string, any>> => {
  const { stdout } = await promisify(execFile)(process.execPath, [INSPECTOR, '--cli', ...args], { env: { PATH: process.env.PATH ?? '' }, timeout: 240_000 });
  return JSON.parse(stdout) as Record<string, any>;
};

/**
 * shotfarm as an MCP server (beyond-v1.md part 7), exercised with the SDK's own Client over both transports:
 * /api/v1/mcp (Streamable HTTP, in the control plane) and `shotfarm mcp` (stdio, a child process talking to
 * the same running service over its HTTP API), with a real Chromium capturing pages of the local test site.
 */
describe('MCP: the SDK client over Streamable HTTP (/api/v1/mcp) and stdio (shotfarm mcp)', function () {
  this.timeout(300_000);
  let api: TestApi;
  let site: TestSite;
  let owner: TestAccount;
  let other: TestAccount;
  let dataDir: string;
  const clients: Client[] = [];

  const httpClient = async (headers: Record<string, string>): Promise<Client> => {
    const client = new Client({ name: 'shotfarm-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  };
  const stdioClient = async (key: string): Promise<Client> => {
    const client = new Client({ name: 'shotfarm-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_PATH, 'mcp', '--api', api.plane.url, '--key', key],
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', SHOTFARM_DATA_DIR: dataDir },
        stderr: 'ignore',
      }),
    );
    clients.push(client);
    return client;
  };
  const balance = async (acct: TestAccount): Promise<number> => (await call(api.url, '/account/info', { key: acct.key })).body.data.balance as number;
  const screenshotCount = async (acct: TestAccount): Promise<number> => Number((await api.database.db('screenshots').where({ company_id: acct.companyId }).count({ n: '*' }).first())?.n ?? 0);

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-mcp-'));
    site = await TestSite.start();
    // A small image limit, so that the default 1280 × 800 viewport shows the scaling (640 × 400).
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '2', SHOTFARM_MCP_MAX_IMAGE_PX: '640' }, { agent: true });
    owner = await api.account(1000);
    other = await api.account(1000);
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await api?.stop();
    await site?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the six tools over both transports, each input schema valid JSON Schema (2020-12, strict) derived from the option table', async () => {
    const http = await httpClient({ 'X-API-KEY': owner.key });
    const stdio = await stdioClient(owner.key);
    const { tools } = await http.listTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(['batch_screenshots', 'get_screenshot', 'list_devices', 'monitor_page', 'read_page', 'screenshot']);
    // Both transports answer the same tools and schemas (the descriptions say each process's image limit).
    const shape = (list: typeof tools): unknown => list.map((t) => ({ name: t.name, inputSchema: t.inputSchema }));
    expect(shape((await stdio.listTools()).tools)).to.deep.equal(shape(tools));

    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const validators = Object.fromEntries(tools.map((t) => [t.name, ajv.compile(t.inputSchema)]));
    for (const t of tools) expect(t.description, t.name).to.have.length.above(60);

    const screenshot = tools.find((t) => t.name === 'screenshot')!;
    const properties = screenshot.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(Object.keys(properties)).to.include.members(offeredOptions());
    expect(properties.browser?.enum).to.deep.equal([...BROWSERS]);
    expect(properties).to.not.have.property('pdf');
    expect(validators.screenshot!({ url: 'https://example.com/', browser: 'firefox', size: 'page', hide_selector: ['.ad'] })).to.equal(true);
    expect(validators.screenshot!({ url: 'https://example.com/', browser: 'safari' })).to.equal(false);
    expect(validators.screenshot!({ url: 'https://example.com/', brwser: 'chrome' })).to.equal(false);
    expect(validators.screenshot!({ browser: 'chrome' })).to.equal(false);
    expect(validators.monitor_page!({ url: 'https://example.com/', interval: 300, threshold: 2.5, ignore: ['.clock', { x: 0, y: 0, width: 10, height: 10 }] })).to.equal(true);
    expect(validators.batch_screenshots!({ urls: [] })).to.equal(false);
  });

  it('screenshot answers an image that decodes at the viewport size, scaled to at most SHOTFARM_MCP_MAX_IMAGE_PX on its long side, with the record id and link', async () => {
    const http = await httpClient({ 'X-API-KEY': owner.key });
    const before = await balance(owner);
    const r = (await http.callTool({ name: 'screenshot', arguments: { url: site.url('/shots.html') } }, undefined, CALL)) as CallToolResult;
    expect(r.isError, texts(r).join('\n')).to.not.equal(true);
    const [img] = images(r);
    expect(img?.mimeType).to.equal('image/png');
    const meta = await sharp(Buffer.from(img!.data, 'base64')).metadata();
    expect([meta.width, meta.height]).to.deep.equal([640, 400]);
    const [summary] = jsonBlocks(r);
    expect(summary).to.include({ status: 'finished', answered_width: 640, answered_height: 400 });
    expect(await balance(owner)).to.equal(before - Number(summary!.cost));
    // The link opens the full-size image without a key (a signed link).
    const full = await fetch(summary!.image_url as string);
    expect(full.status).to.equal(200);
    expect((await sharp(Buffer.from(await full.arrayBuffer())).metadata()).width).to.equal(1280);

    // stdio: the process's own limit (the default 1568) is above this viewport, which is never enlarged.
    const stdio = await stdioClient(owner.key);
    const s = (await stdio.callTool({ name: 'screenshot', arguments: { url: site.url('/shots.html'), screen_width: 500, screen_height: 300 } }, undefined, CALL)) as CallToolResult;
    expect(s.isError, texts(s).join('\n')).to.not.equal(true);
    const small = await sharp(Buffer.from(images(s)[0]!.data, 'base64')).metadata();
    expect([small.width, small.height]).to.deep.equal([500, 300]);
    expect(jsonBlocks(s)[0]!.id).to.be.a('number');
  });

  it('read_page of an article answers Markdown that holds the article (headings, table, code block) and drops the nav and the footer', async () => {
    for (const client of [await httpClient({ 'X-API-KEY': owner.key }), await stdioClient(owner.key)]) {
      const r = (await client.callTool({ name: 'read_page', arguments: { url: site.url('/extract/article.html') } }, undefined, CALL)) as CallToolResult;
      expect(r.isError, texts(r).join('\n')).to.not.equal(true);
      expect(images(r)).to.have.length(0);
      const [markdown, about] = texts(r);
      expect(markdown).to.match(/^# Tuning a browser farm$/m);
      expect(markdown).to.match(/^## Measure first$/m);
      expect(markdown).to.match(/^### What we learned$/m);
      expect(markdown).to.match(/^\| *Settle *\| *610 *\| *2500 *\|$/m);
      expect(markdown).to.match(/^```[a-z]*\nconst pool = new BrowserPool\(\{ size: 4, recycleAfter: 200 \}\);$/m);
      expect(markdown).to.include(`[two-core machine](${site.url('/extract/guides/two-cores.html')})`);
      for (const chrome of ['Subscribe to the newsletter', 'About us', 'Privacy policy', 'Imprint and legal notice']) expect(markdown).to.not.include(chrome);
      const record = JSON.parse(about!) as Record<string, any>;
      expect(record).to.include({ url: site.url('/extract/article.html') });
      expect(record.metadata).to.include({ title: 'Tuning a browser farm | The Farm Journal', lang: 'en-GB' });
      expect(record.metadata.open_graph).to.include({ title: 'Tuning a browser farm' });
    }
  });

  it("a failed capture is a tool error with the record's plain sentence, and costs nothing", async () => {
    const http = await httpClient({ 'X-API-KEY': owner.key });
    const before = await balance(owner);
    const r = (await http.callTool({ name: 'screenshot', arguments: { url: site.url('/shots.html'), fail_unless_selector: '#not-on-this-page' } }, undefined, CALL)) as CallToolResult;
    expect(r.isError).to.equal(true);
    const [sentence] = texts(r);
    const [record] = jsonBlocks(r);
    expect(record).to.include({ status: 'error', error_cause: 'condition_failed' });
    expect(sentence).to.equal(`The capture of ${site.url('/shots.html')} failed: ${String(record!.error)}`);
    expect(await balance(owner)).to.equal(before);
  });

  it("refuses arguments the schema does not declare, and invalid values with the API's field message, before capturing anything", async () => {
    const http = await httpClient({ 'X-API-KEY': owner.key });
    const count = await screenshotCount(owner);
    const typo = (await http.callTool({ name: 'screenshot', arguments: { url: site.url('/shots.html'), brwser: 'firefox' } })) as CallToolResult;
    expect(typo.isError).to.equal(true);
    expect(texts(typo)[0]).to.match(/Unknown argument\(s\): brwser/);
    const bad = (await http.callTool({ name: 'screenshot', arguments: { url: site.url('/shots.html'), browser: 'safari' } })) as CallToolResult;
    expect(bad.isError).to.equal(true);
    expect(texts(bad)[0]).to.match(/^Invalid parameters: browser must be one of chrome, firefox, brave/);
    expect(await screenshotCount(owner)).to.equal(count);
  });

  it("get_screenshot reads the caller's own record, and another account's key cannot read it over either transport", async () => {
    const http = await httpClient({ 'X-API-KEY': owner.key });
    const made = (await http.callTool({ name: 'screenshot', arguments: { url: site.url('/shots.html') } }, undefined, CALL)) as CallToolResult;
    const id = jsonBlocks(made)[0]!.id as number;

    const own = (await http.callTool({ name: 'get_screenshot', arguments: { id } })) as CallToolResult;
    expect(own.isError).to.not.equal(true);
    expect(images(own)).to.have.length(1);
    expect(jsonBlocks(own).at(-1)).to.include({ id, status: 'finished' });

    for (const client of [await httpClient({ 'X-API-KEY': other.key }), await stdioClient(other.key)]) {
      const theirs = (await client.callTool({ name: 'get_screenshot', arguments: { id } })) as CallToolResult;
      expect(theirs.isError).to.equal(true);
      expect(images(theirs)).to.have.length(0);
      expect(texts(theirs).join('\n'))
        .to.match(/not found/i)
        .and.not.include(site.url('/shots.html'));
    }
  });

  it('refuses a bad key before any tool runs: 401 on /api/v1/mcp, exit code 2 from shotfarm mcp', async () => {
    const count = await screenshotCount(owner);
    const refusedHeaders: Record<string, string>[] = [{ 'X-API-KEY': 'sk_not_a_key_of_anyone_0000000000' }, { Authorization: 'Bearer not-a-key-nor-a-token' }, {}];
    for (const headers of refusedHeaders) {
      const client = new Client({ name: 'shotfarm-test', version: '1' });
      const refused = await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers } })).then(
        () => null,
        (err: unknown) => err as { code?: number },
      );
      expect(refused, JSON.stringify(headers)).to.not.equal(null);
      expect(refused?.code).to.equal(401);
    }
    // The raw answer is the API's error envelope.
    const raw = await call(api.url, '/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-KEY': 'wrong' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(raw.status).to.equal(401);
    expect(raw.body).to.include({ success: false });

    const cli = await runCli(['mcp', '--api', api.plane.url, '--key', 'sk_not_a_key_of_anyone_0000000000'], { LOG_LEVEL: 'silent', SHOTFARM_DATA_DIR: dataDir }, 60_000);
    expect(cli.code).to.equal(2);
    expect(cli.stdout).to.equal('');
    expect(cli.stderr).to.match(/refuses the key/);
    expect(await screenshotCount(owner)).to.equal(count);
  });

  it("a dashboard token (Authorization: Bearer) reaches the tools as its user's account", async () => {
    const token = await api.userToken(owner.companyId);
    const client = await httpClient({ Authorization: `Bearer ${token}` });
    const devices = (await client.callTool({ name: 'list_devices', arguments: {} })) as CallToolResult;
    const [list] = jsonBlocks(devices) as unknown as Record<string, unknown>[][];
    expect(list).to.be.an('array').that.is.not.empty;
    expect(list![0]).to.have.keys('device_name', 'name', 'screen_width', 'screen_height', 'device_mobile');
    // An API key of the same account works as a bearer credential too.
    const byKey = await httpClient({ Authorization: `Bearer ${owner.key}` });
    expect((await byKey.listTools()).tools).to.have.length(6);
  });

  it('batch_screenshots sends progress notifications until the batch ends, then answers it with its zip_url', async () => {
    const http = await httpClient({ 'X-API-KEY': owner.key });
    const progress: Progress[] = [];
    const r = (await http.callTool({ name: 'batch_screenshots', arguments: { urls: [site.url('/shots.html?b=1'), site.url('/shots.html?b=2')], screen_width: 400, screen_height: 300 } }, undefined, {
      ...CALL,
      resetTimeoutOnProgress: true,
      onprogress: (p) => void progress.push(p),
    })) as CallToolResult;
    expect(r.isError, texts(r).join('\n')).to.not.equal(true);
    const [batch] = jsonBlocks(r);
    expect(batch).to.include({ status: 'finished', count: 2, processed: 2, failed: 0 });
    expect(progress.length).to.be.at.least(1);
    expect(progress.at(-1)).to.include({ progress: 2, total: 2 });
    for (const [a, b] of progress.slice(1).map((p, i) => [progress[i]!, p] as const)) expect(b.progress).to.be.at.least(a.progress);
    const zip = await fetch(batch!.zip_url as string);
    expect(zip.status).to.equal(200);
    expect(zip.headers.get('content-type')).to.match(/application\/zip/);
  });

  it('monitor_page creates a monitor of the account, as POST /monitor/create does', async () => {
    const stdio = await stdioClient(owner.key);
    const r = (await stdio.callTool({ name: 'monitor_page', arguments: { url: site.url('/shots.html'), interval: 300, threshold: 5, ignore: ['.clock'] } })) as CallToolResult;
    expect(r.isError, texts(r).join('\n')).to.not.equal(true);
    const [monitor] = jsonBlocks(r);
    const info = await call(api.url, `/monitor/info?id=${monitor!.id}`, { key: owner.key });
    expect(info.status).to.equal(200);
    expect(info.body.data).to.include({ id: monitor!.id, interval: 300, threshold: 5 });
    await call(api.url, '/monitor/delete', { method: 'POST', key: owner.key, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: monitor!.id }) });
  });

  it("the MCP Inspector's CLI lists and calls the tools of shotfarm mcp (stdio) and /api/v1/mcp (Streamable HTTP)", async () => {
    const stdio = [process.execPath, CLI_PATH, 'mcp', '--api', api.plane.url, '--key', owner.key, '-e', `SHOTFARM_DATA_DIR=${dataDir}`, '-e', 'LOG_LEVEL=silent'];
    // The Inspector takes the server command first and its own options after it.
    const listed = await inspector([...stdio.slice(0, 7), '--method', 'tools/list', ...stdio.slice(7)]);
    expect((listed.tools as { name: string }[]).map((t) => t.name)).to.include.members(['screenshot', 'read_page', 'list_devices']);
    const shot = await inspector([...stdio.slice(0, 7), '--method', 'tools/call', '--tool-name', 'screenshot', '--tool-arg', `url=${site.url('/shots.html')}`, ...stdio.slice(7)]);
    expect(shot.isError ?? false, JSON.stringify(shot).slice(0, 500)).to.equal(false);
    const image = (shot.content as { type: string; data?: string }[]).find((c) => c.type === 'image');
    expect((await sharp(Buffer.from(image!.data!, 'base64')).metadata()).width).to.equal(1280);

    const devices = await inspector([`${api.url}/mcp`, '--transport', 'http', '--header', `X-API-KEY: ${owner.key}`, '--method', 'tools/call', '--tool-name', 'list_devices']);
    expect(devices.isError ?? false).to.equal(false);
    expect(JSON.parse((devices.content as { text: string }[])[0]!.text)).to.be.an('array').that.is.not.empty;
  });
});
