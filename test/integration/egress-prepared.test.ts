import http from 'node:http';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import type { PreparedEgress } from '../../core/contracts/browser-driver.js';
import { createLogger } from '../../core/logger.js';
import { contextOptions } from '../../drivers/playwright/context-options.js';
import type { Engine } from '../../drivers/playwright/engine.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { EgressGuard } from '../../node-agent/egress/egress-guard.js';
import { captureGuarded } from '../../node-agent/egress/guarded-capture.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { mappedLookup } from '../support/egress-test-hosts.js';
import { PacketListener } from '../support/packet-listener.js';
import { TestSite } from '../support/test-site.js';

/** GET an absolute URI through the guard with these proxy credentials (user:password of a proxy URL). */
function viaGuard(guardPort: number, proxyUrl: string, url: string): Promise<number | string> {
  const u = new URL(proxyUrl);
  const auth = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: guardPort, path: url, headers: { host: new URL(url).host, 'proxy-authorization': `Basic ${Buffer.from(auth).toString('base64')}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

/** Waits up to 5 s for `done`: what happens after a capture has returned (its context closing). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !done();) {
    if (Date.now() - started > 5_000) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const CHROMIUM = '/usr/lib/chromium/chromium';

/**
 * Issue 30: contexts made before their capture carry the egress guard's pending credentials. Pending, they
 * reach nothing (407, zero packets at a listener the guard would otherwise let through); bound to a
 * capture's pass they are that capture's (its upstream, its refusal log); once the pass closes, 407 again.
 */
describe('egress guard: prepared (pending) credentials', function () {
  this.timeout(120_000);
  let site: TestSite;
  let listener: PacketListener;
  let guard: EgressGuard;
  let guardPort: number;
  let sitePort: number;

  before(async () => {
    site = await TestSite.start();
    listener = await PacketListener.start();
    sitePort = Number(new URL(site.url('/')).port);
    // 127.0.0.1 is allowlisted: the listener is a destination the guard WOULD let a live pass reach, so
    // only the pending state keeps requests from it.
    guard = new EgressGuard({ allowlist: ['127.0.0.1/32'], lookup: mappedLookup({ 'site.test': '127.0.0.1', 'rebind.test': '10.0.0.5' }) }, createLogger('silent'));
    await guard.start();
    guardPort = Number(new URL(guard.browserProxy()).port);
  });
  after(async () => {
    await guard?.stop();
    await listener?.close();
    await site?.close();
  });

  const prepare = (): PreparedEgress => {
    const preparer = guard.preparer();
    if (!preparer) throw new Error('a credentials guard prepares passes');
    return preparer();
  };

  it('a pending pass reaches nothing; bound, it is its capture’s; after the capture’s pass closes, 407', async () => {
    const pending = prepare();
    expect(await viaGuard(guardPort, pending.proxy, `http://site.test:${listener.port}/pending`)).to.equal(407);
    expect(await viaGuard(guardPort, pending.proxy, site.url('/echo?prepared=pending'))).to.equal(407);
    expect(listener.arrivals, 'nothing reached the listener').to.deep.equal([]);
    expect(site.hits('/echo?prepared=pending')).to.equal(0);

    const job = await guard.open(41, null);
    expect(pending.bind(job.proxy)).to.equal(true);
    expect(pending.bind(job.proxy), 'bound once only').to.equal(false);
    expect(await viaGuard(guardPort, pending.proxy, `http://site.test:${sitePort}/echo?prepared=bound`)).to.equal(200);
    expect(site.hits('/echo?prepared=bound')).to.equal(1);
    // Its refusals are logged as the capture's.
    expect(await viaGuard(guardPort, pending.proxy, `http://rebind.test:${sitePort}/echo`)).to.equal('ECONNRESET');
    expect(job.blocked()).to.deep.equal([{ host: 'rebind.test', port: sitePort, address: '10.0.0.5', kind: 'private' }]);

    job.close();
    expect(await viaGuard(guardPort, pending.proxy, site.url('/echo?prepared=closed'))).to.equal(407);
    expect(site.hits('/echo?prepared=closed')).to.equal(0);
    pending.close();
  });

  it('cannot be bound to a closed pass, nor once closed itself', async () => {
    const closedJob = await guard.open(42, null);
    closedJob.close();
    const pending = prepare();
    expect(pending.bind(closedJob.proxy)).to.equal(false);
    expect(pending.bind('http://42:not-a-pass@127.0.0.1:1')).to.equal(false);
    pending.close();
    const job = await guard.open(43, null);
    try {
      expect(pending.bind(job.proxy)).to.equal(false);
      expect(await viaGuard(guardPort, pending.proxy, site.url('/echo?prepared=revoked'))).to.equal(407);
      expect(site.hits('/echo?prepared=revoked')).to.equal(0);
    } finally {
      job.close();
    }
  });

  it('in Chromium: a context on pending credentials sends nothing to the listener, then loads its capture’s page once bound', async () => {
    let browser: Browser | null = null;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, proxy: { server: guard.browserProxy() } });
      const engine: Engine = { browser: 'chrome', name: 'chromium', braveEmulation: false, launchedDark: false };
      const pending = prepare();
      const context = await browser.newContext(contextOptions({ ...captureSpec('chrome', 'about:blank'), proxy: pending.proxy }, engine));
      const page = await context.newPage();
      const early = await page.goto(`http://site.test:${listener.port}/pending-page`, { timeout: 10_000 }).then(
        (response) => response?.status() ?? 0,
        () => 'failed',
      );
      expect(early).to.not.equal(200);
      expect(listener.arrivals, 'nothing reached the listener').to.deep.equal([]);
      const job = await guard.open(44, null);
      expect(pending.bind(job.proxy)).to.equal(true);
      // A new page of the same context (the first one shows the failed navigation's error page).
      const next = await context.newPage();
      const bound = await next.goto(`http://site.test:${sitePort}/echo?prepared=chromium`, { timeout: 10_000 });
      expect(bound?.status()).to.equal(200);
      job.close();
      const after = await next.goto(`http://site.test:${sitePort}/echo?prepared=chromium-closed`, { timeout: 10_000 }).then(
        (response) => response?.status() ?? 0,
        () => 'failed',
      );
      expect(after).to.not.equal(200);
      expect(site.hits('/echo?prepared=chromium-closed')).to.equal(0);
      pending.close();
      await context.close();
    } finally {
      await browser?.close();
    }
  });

  it('the Playwright driver: the second capture takes the context prepared after the first, a capture with other options a fresh one', async () => {
    const made: { egress: PreparedEgress; binds: boolean[]; closed: boolean }[] = [];
    const preparer = guard.preparer();
    if (!preparer) throw new Error('a credentials guard prepares passes');
    const prepareEgress = (): PreparedEgress => {
      const egress = preparer();
      const entry = { egress, binds: [] as boolean[], closed: false };
      made.push(entry);
      return {
        proxy: egress.proxy,
        bind: (proxy) => {
          const bound = egress.bind(proxy);
          entry.binds.push(bound);
          return bound;
        },
        close: () => {
          entry.closed = true;
          egress.close();
        },
      };
    };
    const handle = await new PlaywrightDriver().launch('chrome', { egressProxy: guard.browserProxy(), prepareEgress });
    try {
      const capture = async (id: number, width: number): Promise<number | null> => {
        const spec = captureSpec('chrome', `http://site.test:${sitePort}/echo?prepared-capture=${id}`, { id, device: { ...captureSpec('chrome', '').device, width } });
        const { output, pageFailure } = await captureGuarded(guard, spec, null, (s) => handle.capture(s, AbortSignal.timeout(60_000)));
        expect(pageFailure).to.equal(null);
        return output.responseCode;
      };
      expect(await capture(51, 800)).to.equal(200);
      expect(made, 'one context prepared after the first capture').to.have.length(1);
      expect(await capture(52, 800)).to.equal(200);
      expect(made[0]!.binds, 'the second capture bound the prepared credentials').to.deep.equal([true]);
      // The context closes after the result is out (capture-pipeline.ts): its credentials are revoked then.
      await until(() => made[0]!.closed, 'the credentials revoked when the context closed');
      expect(made, 'another prepared after the second').to.have.length(2);
      expect(await capture(53, 640)).to.equal(200);
      expect(made[1]!.binds, 'other context options: never bound').to.deep.equal([]);
      await until(() => made[1]!.closed, 'a prepared context not taken closed all the same');
      expect(site.hits('/echo?prepared-capture=53')).to.equal(1);
    } finally {
      await handle.close();
    }
    await until(() => made.every((entry) => entry.closed), 'a closed browser holds no prepared credentials');
  });
});
