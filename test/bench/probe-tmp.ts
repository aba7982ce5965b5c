// scratch: where the time outside the record goes (not committed)
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TestSite } from '../support/test-site.js';
import { startEmbedded } from './service-processes.js';
const site = await TestSite.start();
const root = await mkdtemp(path.join(os.tmpdir(), 'shotfarm-probe-'));
const ac = new AbortController();
const svc = await startEmbedded({ root, siteHost: new URL(site.url('/')).hostname, onUnexpectedExit: (e) => console.error(e), signal: ac.signal }, 'chrome', 1);
const { base, key } = svc.api;
const get = async (p: string) => { const r = await fetch(base + p, { headers: { 'X-API-KEY': key } }); const b = Buffer.from(await r.arrayBuffer()); return { r, b }; };
const size = process.argv[2] ?? 'screen';
const rows: number[][] = [];
for (let i = 0; i < 14; i++) {
  const t0 = performance.now();
  const q = new URLSearchParams({ url: site.url(`/target.html?n=${i}`), size, screen_width: '1280', screen_height: '800', browser: 'chrome' });
  const c = await get(`/screenshot/create?${q}`);
  const t1 = performance.now();
  const id = JSON.parse(c.b.toString()).data[0].id;
  const info = JSON.parse((await get(`/screenshot/info?id=${id}&wait=30`)).b.toString()).data;
  const t2 = performance.now();
  const img = await get(`/screenshot/thumbnail?id=${id}`);
  const t3 = performance.now();
  const tm = info.timings;
  if (i >= 4) rows.push([t1 - t0, t2 - t1, t3 - t2, tm.total, (t2 - t0) - tm.total, t3 - t0, img.b.length / 1024]);
}
const mean = (k: number) => (rows.reduce((a, r) => a + r[k]!, 0) / rows.length).toFixed(1);
console.log('create', mean(0), 'info', mean(1), 'download', mean(2), 'record total', mean(3), 'create+info-total', mean(4), 'client', mean(5), 'KB', mean(6));
await svc.stop(); await site.close();
