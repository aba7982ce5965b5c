import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import webdav from '../../plugins/examples/webdav-app.js';
import { AppRunError, checkAppPlugin, runContext, SAMPLE_HTML, SAMPLE_PNG } from '../../plugins/plugin-sdk.js';

/** A WebDAV folder as far as PUT goes: records each file and its Authorization header; `status` forces an answer. */
async function startPutServer(): Promise<{ url: string; files: Map<string, { body: Buffer; auth: string }>; status: number | null; close(): Promise<void> }> {
  const state = { files: new Map<string, { body: Buffer; auth: string }>(), status: null as number | null };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.status) return void res.writeHead(state.status).end();
      state.files.set(decodeURIComponent(req.url ?? ''), { body: Buffer.concat(chunks), auth: String(req.headers.authorization ?? '') });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dav/shots`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

describe("the example plugin of the author's guide (plugins/examples/webdav-app.ts)", () => {
  it('passes the contract test kit, and the files arrive byte for byte where the template says, with basic auth', async () => {
    const dav = await startPutServer();
    try {
      const { output } = await checkAppPlugin(webdav, {
        settings: { base_url: dav.url, username: 'ann', password: 'pw', path: '{domain}/{id}' },
        invalidSettings: [
          { settings: { base_url: 'ftp://x' }, why: 'not http(s)' },
          { settings: {}, why: 'base_url missing' },
        ],
      });
      expect(dav.files.get('/dav/shots/www.example.com/4242.png')?.body.equals(SAMPLE_PNG)).to.equal(true);
      expect(dav.files.get('/dav/shots/www.example.com/4242.html')?.body.equals(SAMPLE_HTML)).to.equal(true);
      expect(dav.files.get('/dav/shots/www.example.com/4242.png')?.auth).to.equal(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
      expect(output.output_url).to.equal(`${dav.url}/www.example.com/4242.png`);
    } finally {
      await dav.close();
    }
  });

  it('a 401 is final, a 503 is retryable', async () => {
    const dav = await startPutServer();
    try {
      for (const [status, retryable] of [
        [401, false],
        [503, true],
      ] as const) {
        dav.status = status;
        const err = await webdav.run(runContext(webdav.settingsSchema.parse({ base_url: dav.url }))).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).to.be.instanceOf(AppRunError);
        expect((err as AppRunError).retryable, String(status)).to.equal(retryable);
      }
    } finally {
      await dav.close();
    }
  });
});
