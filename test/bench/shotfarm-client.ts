/**
 * One capture through shotfarm's public HTTP API, as a client does it: create → info (held open with
 * `wait` until the record leaves processing) → the image bytes. The image comes from
 * /screenshot/thumbnail without options, which sends the stored PNG as it is (api/screenshots/screenshot-routes.ts:
 * no options, no re-encoding), so the download costs what fetching any stored file costs.
 */
import { performance } from 'node:perf_hooks';
import { CAPTURE_DEADLINE_MS, HEIGHT, INFO_WAIT_SECONDS, WIDTH } from './bench-settings.js';
import type { CaptureFn } from './measure.js';

export interface ShotfarmApi {
  /** `http://127.0.0.1:<port>/api/v1` */
  base: string;
  key: string;
  /** the API's browser name: chrome or firefox */
  browser: string;
}

/** GET a path of the API with the key; anything but 200 fails the capture with the answer's text. */
async function apiGet(api: ShotfarmApi, pathAndQuery: string, signal: AbortSignal): Promise<Response> {
  // undici says only "fetch failed"; the reason (refused, reset, closed by the server) is its cause.
  const res = await fetch(`${api.base}${pathAndQuery}`, { headers: { 'X-API-KEY': api.key }, signal }).catch((error: unknown) => {
    throw new Error(`GET ${pathAndQuery}: ${String(error)} (${String((error as { cause?: unknown }).cause)})`);
  });
  if (res.status !== 200) throw new Error(`GET ${pathAndQuery}: HTTP ${res.status} ${(await res.text()).slice(0, 500)}`);
  return res;
}

interface Info {
  status: string;
  error?: string;
  timings?: Record<string, number>;
}

/** `options`: more create parameters (capture-cost.ts compares wait_until=load with the default, settled). */
export function shotfarmCapture(api: ShotfarmApi, options: Record<string, string> = {}): CaptureFn {
  return async (url, size, _worker, signal) => {
    const started = performance.now();
    const query = new URLSearchParams({ url, size, screen_width: String(WIDTH), screen_height: String(HEIGHT), browser: api.browser, ...options });
    const created = (await (await apiGet(api, `/screenshot/create?${query}`, signal)).json()) as { data: { id: number }[] };
    const createdAt = performance.now();
    const id = created.data[0]?.id;
    if (id === undefined) throw new Error(`create ${url}: no record in the answer`);
    let info: Info = { status: 'processing' };
    // One info call normally suffices; it returns early only after `wait` seconds or when the client goes.
    while (info.status === 'processing') {
      if (performance.now() - started > CAPTURE_DEADLINE_MS) throw new Error(`screenshot ${id} still processing after ${CAPTURE_DEADLINE_MS / 1000} s`);
      info = ((await (await apiGet(api, `/screenshot/info?id=${id}&wait=${INFO_WAIT_SECONDS}`, signal)).json()) as { data: Info }).data;
    }
    if (info.status !== 'finished') throw new Error(`screenshot ${id} ended ${info.status}: ${info.error ?? ''}`);
    const answeredAt = performance.now();
    const image = await (await apiGet(api, `/screenshot/thumbnail?id=${id}`, signal)).arrayBuffer();
    if (image.byteLength === 0) throw new Error(`screenshot ${id}: empty image`);
    const ended = performance.now();
    // The client's own laps beside the record's timings: the create call and the image download are two of the
    // three requests in `outside_record` (report.ts); what is left of it is the result recorded and info's answer.
    return { ms: ended - started, timings: { ...info.timings, create_call: createdAt - started, download: ended - answeredAt } };
  };
}
