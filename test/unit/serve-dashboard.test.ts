import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { expect } from 'chai';
import Koa from 'koa';
import { serveDashboard } from '../../api/dashboard/serve-dashboard.js';

/** The dashboard middleware over a build of two files, in front of a stand-in for the API. */
describe('serveDashboard', () => {
  let dir: string;
  let server: Server;
  let base: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shotfarm-dashboard-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/app-abc123.js"></script>');
    writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1);');
    writeFileSync(join(dir, 'assets', 'notes.txt'), 'not a type the dashboard serves');
    const app = new Koa();
    app.use(serveDashboard(dir));
    app.use((ctx) => {
      ctx.body = `next ${ctx.method} ${ctx.path}`;
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers /, /index.html and the account emails' links with the page, revalidated on every load, under a CSP without inline script", async () => {
    for (const path of ['/', '/index.html', '/verify-email?token=abc', '/reset-password?token=abc']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      expect(res.headers.get('content-security-policy')).to.include("script-src 'self'").and.not.include('unsafe-inline');
      expect(await res.text()).to.include('/assets/app-abc123.js');
    }
  });

  it('answers a hashed asset with its type, cached as immutable; HEAD too', async () => {
    const res = await fetch(`${base}/assets/app-abc123.js`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(await res.text()).to.equal('console.log(1);');
    const head = await fetch(`${base}/assets/app-abc123.js`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
  });

  it('answers 404 for an asset that is not in the build, a file of another type, or a path climbing out', async () => {
    for (const path of ['/assets/app-old999.js', '/assets/notes.txt', '/assets/..%2findex.html', '/assets/']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).to.equal(404);
      expect(res.headers.get('cache-control'), path).to.equal('no-store');
    }
  });

  it('passes every other path and method on (the API, health, metrics, OpenAPI)', async () => {
    for (const path of ['/api/v1/screenshot/list', '/healthz', '/readyz', '/metrics', '/api/v1/openapi.json', '/index.htm', '/favicon.ico']) {
      expect(await (await fetch(`${base}${path}`)).text(), path).to.equal(`next GET ${path}`);
    }
    expect(await (await fetch(`${base}/`, { method: 'POST' })).text()).to.equal('next POST /');
  });

  it('passes / on when there is no build (the API still answers)', async () => {
    const app = new Koa();
    app.use(serveDashboard(join(dir, 'missing')));
    app.use((ctx) => {
      ctx.body = 'next';
    });
    const bare = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => bare.once('listening', resolve));
    try {
      expect(await (await fetch(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`)).text()).to.equal('next');
    } finally {
      bare.close();
    }
  });
});
