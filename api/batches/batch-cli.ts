import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** Where the batch commands reach the service: its base URL (http://localhost:8080) and an API key. */
export interface BatchApi {
  api: string;
  key: string;
}

/** What every batch command writes to: progress lines (stderr) and the result (stdout). */
export interface BatchOutput {
  progress: NodeJS.WritableStream;
  print: (line: string) => void;
}

export interface BatchCliOptions extends BatchApi, BatchOutput {
  file: string;
  wait: boolean;
  /** where the ZIP goes (implies waiting) */
  output: string | null;
  /** every other batch field (`--browser firefox --thumbnail_width 320`) */
  fields: Record<string, string>;
}

/** How often the CLI asks for progress while it waits. */
const POLL_MS = 1000;
/** Width of the progress bar in characters. */
const BAR_WIDTH = 30;

interface BatchAnswer {
  id: number;
  status: string;
  error: string;
  count: number;
  processed: number;
  failed: number;
  zip_url: string;
  invalid_lines?: { line: number; error: string }[];
}

/** An answer of the API that is not a success, with the status the exit code is chosen from. */
export class BatchApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const base = (o: BatchApi): string => `${o.api.replace(/\/+$/, '')}/api/v1`;

/** fetch, with a failure to connect said as such (fetch's own message is only "fetch failed"). */
async function request(o: BatchApi, pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(`${base(o)}${pathAndQuery}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'X-API-KEY': o.key } });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new BatchApiError(`cannot reach the API at ${o.api} (${cause?.code ?? cause?.message ?? (err as Error).message}); is shotfarm running there? (--api URL)`, 0);
  }
}

async function api<T>(o: BatchApi, pathAndQuery: string, init: RequestInit = {}): Promise<T> {
  const res = await request(o, pathAndQuery, init);
  const body = (await res.json().catch(() => null)) as { success: boolean; data: T; error?: string; fields?: Record<string, string[]> } | null;
  if (body === null) throw new BatchApiError(`the API at ${o.api} answered HTTP ${res.status} without JSON; is that shotfarm? (--api URL)`, res.status);
  if (!body.success) {
    const fields = body.fields
      ? `: ${Object.entries(body.fields)
          .map(([k, v]) => `${k} ${v.join('; ')}`)
          .join(', ')}`
      : '';
    throw new BatchApiError(`${body.error ?? `HTTP ${res.status}`}${fields}`, res.status);
  }
  return body.data;
}

function bar(b: BatchAnswer): string {
  const done = b.processed + b.failed;
  const filled = b.count === 0 ? BAR_WIDTH : Math.round((done / b.count) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${done}/${b.count} (${b.failed} failed)`;
}

/** Polls GET /batch/info until the batch is no longer processing, drawing a progress bar on `progress`. */
async function waitForBatch(o: BatchApi & BatchOutput, id: number): Promise<BatchAnswer> {
  const tty = (o.progress as NodeJS.WriteStream).isTTY === true;
  let lastLine = '';
  for (;;) {
    const batch = await api<BatchAnswer>(o, `/batch/info?id=${id}`);
    const line = bar(batch);
    if (tty) o.progress.write(`\r${line}`);
    else if (line !== lastLine) o.progress.write(`${line}\n`);
    lastLine = line;
    if (batch.status !== 'processing') {
      if (tty) o.progress.write('\n');
      return batch;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Streams GET /batch/download into `output` (never held in memory whole). */
async function downloadZip(o: BatchApi & BatchOutput, batch: BatchAnswer, output: string): Promise<void> {
  // hosting=s3 batches put their files in the customer's bucket; the API gives them no zip_url.
  if (batch.zip_url === '') throw new BatchApiError(`batch ${batch.id} has no ZIP: its files went to your own storage (hosting=s3)`, 404);
  const res = await request(o, `/batch/download?id=${batch.id}`);
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new BatchApiError(`download failed: ${body?.error ?? `HTTP ${res.status}`}`, res.status);
  }
  await pipeline(Readable.fromWeb(res.body as WebReadableStream), fs.createWriteStream(output));
  o.print(`wrote ${output} (${fs.statSync(output).size} bytes)`);
}

/**
 * `shotfarm batch create urls.txt`: uploads the list (multipart, as any client would), shows a progress
 * bar while the batch runs when asked to wait, then downloads the ZIP. Exit code 0 when the batch
 * finished, 1 when it ended in error.
 */
export async function runBatchCreate(o: BatchCliOptions): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(o.file)]), path.basename(o.file));
  for (const [k, v] of Object.entries(o.fields)) form.append(k, v);
  // An array per the spec; one object when the service answers as the original clients expect (SHOTFARM_CLIENT_COMPAT).
  const answer = await api<BatchAnswer[] | BatchAnswer>(o, '/batch/create', { method: 'POST', body: form });
  const created = Array.isArray(answer) ? answer[0] : answer;
  if (!created) throw new Error('the API answered no batch');
  o.print(`batch ${created.id}: ${created.count} URL(s)`);
  for (const bad of created.invalid_lines ?? []) o.print(`  line ${bad.line} skipped: ${bad.error}`);
  if (!o.wait && !o.output) {
    o.print(JSON.stringify(created));
    return 0;
  }
  const batch = await waitForBatch(o, created.id);
  if (batch.status === 'error') o.print(`batch ${batch.id} ended in error: ${batch.error}`);
  if (o.output) await downloadZip(o, batch, o.output);
  return batch.status === 'finished' ? 0 : 1;
}

/** `shotfarm batch info ID`: the Batch as GET /batch/info answers it, one JSON line, and its progress bar on stderr. */
export async function runBatchInfo(o: BatchApi & BatchOutput, id: number): Promise<number> {
  const batch = await api<BatchAnswer>(o, `/batch/info?id=${id}`);
  o.progress.write(`${bar(batch)} ${batch.status}${batch.error ? `: ${batch.error}` : ''}\n`);
  o.print(JSON.stringify(batch));
  return 0;
}

/**
 * `shotfarm batch cancel ID`: POST /batch/cancel. Screenshots not yet captured end unpaid; those done keep
 * their results. Cancelling a batch that already ended changes nothing and says so.
 */
export async function runBatchCancel(o: BatchApi & BatchOutput, id: number): Promise<number> {
  const batch = await api<BatchAnswer>(o, '/batch/cancel', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id }) });
  o.progress.write(`batch ${batch.id}: ${batch.status}${batch.error ? `: ${batch.error}` : ''} (${batch.processed} captured, ${batch.failed} failed of ${batch.count})\n`);
  o.print(JSON.stringify(batch));
  return 0;
}

/**
 * `shotfarm batch download ID -o file.zip`: the batch's ZIP. Without --wait a batch still running gives
 * the screenshots finished so far (as the API does), and says so.
 */
export async function runBatchDownload(o: BatchApi & BatchOutput, id: number, opts: { output: string | null; wait: boolean }): Promise<number> {
  const batch = opts.wait ? await waitForBatch(o, id) : await api<BatchAnswer>(o, `/batch/info?id=${id}`);
  if (batch.status === 'processing') o.progress.write(`batch ${id} is still running: the ZIP holds the ${batch.processed} screenshot(s) finished so far (--wait waits for the end)\n`);
  await downloadZip(o, batch, opts.output ?? `batch-${id}.zip`);
  return 0;
}
