import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export interface BatchCliOptions {
  /** base URL of the API, e.g. http://localhost:8080 */
  api: string;
  key: string;
  file: string;
  wait: boolean;
  /** where the ZIP goes (implies waiting) */
  output: string | null;
  /** every other batch field (`--browser firefox --thumbnail_width 320`) */
  fields: Record<string, string>;
  /** progress lines go here (stderr); the summary goes to stdout */
  progress: NodeJS.WritableStream;
  print: (line: string) => void;
}

/** How often the CLI asks for progress while it waits. */
const POLL_MS = 1000;
/** Width of the progress bar in characters. */
const BAR_WIDTH = 30;

interface BatchAnswer { id: number; status: string; error: string; count: number; processed: number; failed: number; zip_url: string; invalid_lines?: { line: number; error: string }[] }

async function api<T>(o: BatchCliOptions, pathAndQuery: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${o.api.replace(/\/+$/, '')}/api/v1${pathAndQuery}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'X-API-KEY': o.key } });
  const body = await res.json() as { success: boolean; data: T; error?: string; fields?: Record<string, string[]> };
  if (!body.success) {
    const fields = body.fields ? `: ${Object.entries(body.fields).map(([k, v]) => `${k} ${v.join('; ')}`).join(', ')}` : '';
    throw new Error(`${body.error ?? `HTTP ${res.status}`}${fields}`);
  }
  return body.data;
}

function bar(b: BatchAnswer): string {
  const done = b.processed + b.failed;
  const filled = b.count === 0 ? BAR_WIDTH : Math.round((done / b.count) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${done}/${b.count} (${b.failed} failed)`;
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
  const tty = (o.progress as NodeJS.WriteStream).isTTY === true;
  let batch = created;
  let lastLine = '';
  for (;;) {
    batch = await api<BatchAnswer>(o, `/batch/info?id=${created.id}`);
    const line = bar(batch);
    if (tty) o.progress.write(`\r${line}`);
    else if (line !== lastLine) o.progress.write(`${line}\n`);
    lastLine = line;
    if (batch.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  if (tty) o.progress.write('\n');
  if (batch.status === 'error') o.print(`batch ${batch.id} ended in error: ${batch.error}`);
  if (o.output) {
    const res = await fetch(`${o.api.replace(/\/+$/, '')}/api/v1/batch/download?id=${batch.id}`, { headers: { 'X-API-KEY': o.key } });
    if (!res.ok || !res.body) throw new Error(`download failed: HTTP ${res.status}`);
    await pipeline(Readable.fromWeb(res.body as WebReadableStream), fs.createWriteStream(o.output));
    o.print(`wrote ${o.output} (${fs.statSync(o.output).size} bytes)`);
  }
  return batch.status === 'finished' ? 0 : 1;
}
