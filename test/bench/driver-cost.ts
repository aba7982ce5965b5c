/**
 * Benchmark (not a test; issue 19 item 1): what shotfarm's capture costs on one warm Chromium without the
 * service around it, in one process, in rounds that alternate between the variants (48 captures each by default):
 *
 * - raw: the raw loop of speed.ts (newContext → newPage → goto → PNG → close);
 * - driver load / driver settled: the Playwright driver's capture (drivers/shared/capture-pipeline.ts) of the same
 *   page, with wait_until=load and with the API's default, settled;
 * - guard credentials / plain proxy: the raw loop through a proxy, on a browser whose own proxy is the egress guard
 *   (as the agent launches it): the context's proxy is the guard with a capture's credentials (which makes Playwright
 *   intercept every request to answer the 407) or a forwarder without credentials (what a port per capture would be).
 *
 * CPU per capture of the browsers (this process's child trees) and of this process (Playwright's client, the test
 * site, the guard), from /proc.
 *
 *   node dist/test/bench/driver-cost.js [rounds=6] [captures-per-round=8]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { createLogger } from '../../core/logger.js';
import { launchChromium } from '../../drivers/playwright/launch-browser.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { EgressGuard } from '../../node-agent/egress/egress-guard.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';
import { CHROMIUM_PATH, HEIGHT, PAGE_OF, WIDTH } from './bench-settings.js';
import { percentile } from './measure.js';
import { cpuSecondsBetween, ownCpuSecondsBetween, readAllStats, treeOf, childrenOf } from './proc-tree.js';
import { rawCapture } from './raw-loop.js';

const ROUNDS = Number(process.argv[2] ?? 6);
const PER_ROUND = Number(process.argv[3] ?? 8);

interface Variant {
  name: string;
  capture: (url: string) => Promise<unknown>;
  ms: number[];
  browserSeconds: number;
  nodeSeconds: number;
}

const variant = (name: string, capture: (url: string) => Promise<unknown>): Variant => ({ name, capture, ms: [], browserSeconds: 0, nodeSeconds: 0 });

/** A forward proxy for absolute http:// URIs without credentials: what a guard port per capture would answer. */
async function plainForwarder(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const target = new URL(req.url ?? '');
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: { ...req.headers, connection: 'close' } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The raw loop with a context proxy: newContext(proxy) → newPage → goto → PNG → close. */
async function rawThrough(browser: Browser, url: string, proxy: NonNullable<BrowserContextOptions['proxy']>): Promise<void> {
  const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, proxy });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.screenshot({ type: 'png' });
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const site = await TestSite.start();
  const log = createLogger('silent');
  const guard = new EgressGuard({ allowlist: [`${new URL(site.url('/')).hostname}/32`] }, log);
  await guard.start();
  const forwarder = await plainForwarder();
  const handle = await new PlaywrightDriver().launch('chrome', {});
  // The raw loop runs on the driver's own browser, so both sides share one browser process.
  const driverBrowser = (handle as unknown as { playwrightBrowser: Browser }).playwrightBrowser;
  const guarded = await launchChromium(CHROMIUM_PATH, guard.browserProxy());
  let n = 0;
  const device = { name: null, width: WIDTH, height: HEIGHT, scale: 1, mobile: false, touch: false, landscape: false };
  const driverCapture = (waitUntil: 'load' | 'settled') => (url: string) => handle.capture(captureSpec('chrome', url, { waitUntil, device, maxWait: 0 }), new AbortController().signal);
  const variants = [
    variant('raw', (url) => rawCapture(driverBrowser, url, false)),
    variant('driver wait_until=load', driverCapture('load')),
    variant('driver wait_until=settled', driverCapture('settled')),
    variant('guard credentials', async (url) => {
      const pass = await guard.open(++n, null);
      const proxy = new URL(pass.proxy);
      try {
        await rawThrough(guarded, url, { server: `http://${proxy.host}`, bypass: '<-loopback>', username: proxy.username, password: proxy.password });
      } finally {
        pass.close();
      }
    }),
    variant('plain proxy', (url) => rawThrough(guarded, url, { server: forwarder.url, bypass: '<-loopback>' })),
  ];
  const nextUrl = (): string => site.url(`${PAGE_OF.screen}?n=${++n}`);
  try {
    for (const v of variants) for (let i = 0; i < 3; i++) await v.capture(nextUrl());
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of variants.map((_, i) => variants[(i + round) % variants.length]!)) {
        const before = readAllStats();
        for (let i = 0; i < PER_ROUND; i++) {
          const started = performance.now();
          await v.capture(nextUrl());
          v.ms.push(performance.now() - started);
        }
        const after = readAllStats();
        v.browserSeconds += cpuSecondsBetween(before, after, treeOf(after, childrenOf(after, process.pid), new Set()));
        v.nodeSeconds += ownCpuSecondsBetween(before, after, [process.pid]);
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }
    const lines = [
      `driver cost: ${ROUNDS} alternating rounds × ${PER_ROUND} viewport captures of ${PAGE_OF.screen} per variant; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    ];
    for (const v of variants) {
      const count = v.ms.length;
      lines.push(
        `  ${v.name.padEnd(26)} p50 ${percentile(v.ms, 50).toFixed(0).padStart(5)} ms  CPU ms per capture: browsers ${((v.browserSeconds / count) * 1000).toFixed(0).padStart(4)}, this process ${((v.nodeSeconds / count) * 1000).toFixed(0).padStart(3)}`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await guarded.close().catch(() => undefined);
    await handle.close();
    await forwarder.close();
    await guard.stop();
    await site.close();
  }
}

await main();
