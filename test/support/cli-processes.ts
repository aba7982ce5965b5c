import { spawn, type ChildProcess } from 'node:child_process';
import { S3RVER_CREDENTIALS, type RunningS3rver } from './s3rver.js';
import { CLI_PATH } from './run-cli.js';

/** Where a distributed test farm's processes meet: NATS (under a prefix of their own), s3rver and a data folder. */
export interface DistributedFarmPlace {
  /** the NATS subject and bucket prefix, unique per suite so suites never see each other's jobs */
  natsPrefix: string;
  s3: RunningS3rver;
  bucket: string;
  dataDir: string;
}

/**
 * The settings every process of a distributed test farm shares (`shotfarm api` adds DATABASE_URL, agents
 * their node id): the machine's NATS, the suite's s3rver, 1 s heartbeats, and private targets allowed
 * because the local test site listens on 127.0.0.1, which the egress guard would block.
 */
export function distributedFarmEnv(place: DistributedFarmPlace): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    LOG_LEVEL: 'warn',
    NATS_URL: 'nats://127.0.0.1:4222',
    SHOTFARM_NATS_PREFIX: place.natsPrefix,
    S3_ENDPOINT: place.s3.endpoint,
    S3_ACCESS_KEY: S3RVER_CREDENTIALS.accessKey,
    S3_SECRET_KEY: S3RVER_CREDENTIALS.secretKey,
    S3_BUCKET: place.bucket,
    SHOTFARM_DATA_DIR: place.dataDir,
    HOST: '127.0.0.1',
    SHOTFARM_HEARTBEAT_SECONDS: '1',
    SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true',
  };
}

/** Resolves with the first match of `re` in the child's standard output; rejects after `ms` with what it printed. */
export function waitForLine(child: ChildProcess, re: RegExp, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ${re} within ${ms} ms: ${out}`)), ms);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = re.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
  });
}

/** The base URL a started `shotfarm api` or `serve` prints. */
export const startedApiUrl = (child: ChildProcess, ms = 60_000): Promise<string> => waitForLine(child, /http:\/\/127\.0\.0\.1:\d+/, ms);

/** The metrics/health URL a started `shotfarm agent` prints once its browsers are up. */
export const startedAgentUrl = async (child: ChildProcess, ms = 90_000): Promise<string> => (await waitForLine(child, /metrics at http:\/\/127\.0\.0\.1:\d+/, ms)).replace('metrics at ', '');

/**
 * The `shotfarm` processes one suite starts, each in its own process group so the suite can kill an agent
 * with its browsers, and stops them all afterwards: SIGTERM first (an agent drains and closes its
 * browsers), SIGKILL to the group of whatever is still there after the grace period.
 */
export class CliProcesses {
  readonly children: ChildProcess[] = [];

  constructor(private readonly baseEnv: () => Record<string, string>) {}

  /** Starts `shotfarm <args>`; lines of its standard error that mention an error are echoed, named by its role. */
  start(args: string[], extra: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env: { ...this.baseEnv(), ...extra }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr?.on('data', (d: Buffer) => {
      if (/error|fatal/i.test(d.toString())) process.stderr.write(`[${args[0]}] ${d.toString()}`);
    });
    this.children.push(child);
    return child;
  }

  async stopAll(graceMs = 30_000): Promise<void> {
    await Promise.all(
      this.children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map(
          (c) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, graceMs);
              c.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              c.kill('SIGTERM');
            }),
        ),
    );
    for (const child of this.children) {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
