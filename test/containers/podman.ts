import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { repoPath } from '../support/repo-path.js';

/**
 * What the container tests share: podman and podman-compose as child processes, the image under test, the
 * test site container, and reading what a capture drew. The images are built beforehand by
 * test/containers/build-image.sh (make test-image / make test-containers).
 */
const run = promisify(execFile);

/** The image build-image.sh makes from the repository's Dockerfile. */
export const TEST_IMAGE = process.env.SHOTFARM_TEST_IMAGE ?? 'localhost/shotfarm:test';
/** The official Node image name, a stand-in here (standin-images.sh); the test site runs on it. */
export const NODE_IMAGE = 'docker.io/library/node:24-bookworm-slim';

export async function podman(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await run('podman', args, { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/** Exit code of a podman command (for the ones whose failure is an answer, like `healthcheck run`). */
export async function podmanStatus(args: string[]): Promise<number> {
  try {
    await run('podman', args);
    return 0;
  } catch (err) {
    return typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1;
  }
}

/**
 * Waits until the image's own HEALTHCHECK passes in `container` and returns the milliseconds since `since`.
 * podman runs health checks from systemd timers, which this machine has not: `podman healthcheck run` runs
 * the image's check once, as the timer would.
 */
export async function untilHealthy(container: string, since: number, ms = 300_000): Promise<number> {
  await poll(`${container} healthy`, async () => (await podmanStatus(['healthcheck', 'run', container])) === 0, ms);
  return Date.now() - since;
}

/**
 * Like test/support's until(), every half second: each probe here starts podman (and often a process in a
 * container), which on two cores is not free.
 */
export async function poll<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Both streams of a container's output (the image prints to stdout, podman keeps stderr apart). */
export async function logsOf(container: string): Promise<string> {
  const { stdout, stderr } = await run('podman', ['logs', container], { maxBuffer: 64 * 1024 * 1024 });
  return `${stdout}\n${stderr}`;
}

/** The key printed by `shotfarm serve` or `shotfarm api` at start ("API key: sf_..."). */
export async function printedKey(container: string): Promise<string> {
  return poll(`${container} to print its API key`, async () => /API key: (sf_\S+)/.exec(await logsOf(container))?.[1], 60_000);
}

/** The host port a container's 8080 is published on. */
export async function publishedPort(container: string): Promise<number> {
  const line = await podman(['port', container, '8080/tcp']);
  const port = Number(/:(\d+)\s*$/.exec(line)?.[1]);
  if (!port) throw new Error(`${container} publishes no port for 8080: ${line}`);
  return port;
}

/** The site the captures load (test/containers/site.mjs) in a container on `network`, named `site` there. */
export async function startSite(name: string, network: string): Promise<void> {
  await podman(['run', '-d', '--name', name, '--network', network, '--network-alias', 'site', '-v', `${repoPath('test/containers/site.mjs')}:/site/site.mjs:ro`, NODE_IMAGE, 'node', '/site/site.mjs']);
}

/** The shotfarm API of a container, from the host. */
export class Api {
  constructor(
    readonly base: string,
    readonly key: string,
  ) {}

  async get(path: string, query: Record<string, string> = {}): Promise<any> {
    const url = new URL(`/api/v1${path}`, this.base);
    for (const [k, v] of Object.entries({ ...query, key: this.key })) url.searchParams.set(k, v);
    const res = await fetch(url);
    const body = (await res.json()) as any;
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body.data;
  }

  async create(url: string, browser: string): Promise<number> {
    const [record] = (await this.get('/screenshot/create', { url, browser })) as { id: number }[];
    return record!.id;
  }

  /** Waits until every screenshot has left `processing`; returns their records. */
  async ended(ids: number[], ms = 120_000): Promise<{ id: number; status: string; browser_info: string }[]> {
    return poll(
      `screenshots ${ids.join(', ')} to end`,
      async () => {
        const records = await Promise.all(ids.map((id) => this.get('/screenshot/info', { id: String(id) })));
        return records.every((r) => r.status !== 'processing') ? records : null;
      },
      ms,
    );
  }

  async image(id: number): Promise<Buffer> {
    const res = await fetch(`${this.base}/api/v1/screenshot/thumbnail?id=${id}&key=${this.key}`);
    if (!res.ok) throw new Error(`thumbnail ${id}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
}

/**
 * Size of a PNG and the colour of one pixel: the site's page has a red band at y 200-399
 * and a blue one at 400-599 (site.mjs).
 */
export async function pngFacts(png: Buffer, x: number, y: number): Promise<{ width: number; height: number; format: string; rgb: [number, number, number] }> {
  const meta = await sharp(png).metadata();
  const { data } = await sharp(png).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format ?? '', rgb: [data[0]!, data[1]!, data[2]!] };
}

/** A measurement for the report, on its own line in the test output. */
export function measured(what: string, value: string): void {
  process.stdout.write(`      measured: ${what}: ${value}\n`);
}
