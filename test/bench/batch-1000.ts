/**
 * Benchmark (not a test): a 1,000-URL batch in embedded mode against a local page, then the ZIP download.
 * Prints total time, throughput, and the peak RSS of this process (API + queue + agent; the browsers are
 * separate processes) while the ZIP streams, next to its size, to show that memory stays flat.
 *
 *   make bench-batch                      (or: node dist/test/bench/batch-1000.js [urls])
 */
import { startTestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

const URLS = Number(process.argv[2] ?? 1000);
/** RSS is sampled this often while the ZIP downloads: fine enough to catch a buffering spike. */
const SAMPLE_MS = 25;

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const site = await TestSite.start();
  const api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '2' }, { agent: true });
  try {
    const account = await api.account(URLS * 2);
    const list = Array.from({ length: URLS }, (_, i) => site.url(`/echo?n=${i}`)).join('\n');
    const started = Date.now();
    const created = await fetch(`${api.url}/batch/create`, {
      method: 'POST',
      headers: { 'X-API-KEY': account.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ file: list, screen_width: 1280, screen_height: 800 }),
    });
    const [batch] = ((await created.json()) as { data: { id: number }[] }).data;
    if (!batch) throw new Error('no batch created');
    const createdMs = Date.now() - started;
    let info: { status: string; processed: number; failed: number } = { status: 'processing', processed: 0, failed: 0 };
    while (info.status === 'processing') {
      await new Promise((r) => setTimeout(r, 1000));
      info = ((await (await fetch(`${api.url}/batch/info?id=${batch.id}`, { headers: { 'X-API-KEY': account.key } })).json()) as { data: typeof info }).data;
      process.stderr.write(`\r${info.processed + info.failed}/${URLS}`);
    }
    const totalMs = Date.now() - started;
    process.stderr.write('\n');

    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), SAMPLE_MS);
    const downloadStarted = Date.now();
    const res = await fetch(`${api.url}/batch/download?id=${batch.id}`, { headers: { 'X-API-KEY': account.key } });
    let zipBytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) zipBytes += chunk.length;
    clearInterval(sampler);
    const downloadMs = Date.now() - downloadStarted;

    const lines = [
      `batch of ${URLS} URLs (embedded: PGlite, in-process queue, one agent, chrome, 2 slots, 1280x800 viewport)`,
      `  create call:        ${createdMs} ms`,
      `  all finished:       ${(totalMs / 1000).toFixed(1)} s (${info.processed} finished, ${info.failed} failed)`,
      `  throughput:         ${(URLS / (totalMs / 1000)).toFixed(2)} screenshots/s`,
      `  ZIP:                ${mb(zipBytes)} streamed in ${(downloadMs / 1000).toFixed(1)} s`,
      `  process RSS:        ${mb(rssBefore)} before the download, peak ${mb(peak)} during it (+${mb(peak - rssBefore)})`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await api.stop();
    await site.close();
  }
}

await main();
