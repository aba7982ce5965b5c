/**
 * A service the speed benchmark runs as a child process, the way a user runs it, and stops without
 * leaving anything behind:
 * - spawned detached, so it leads a process group of its own (Ctrl-C in the terminal reaches only the
 *   bench, which then stops its children in order);
 * - stopped with SIGTERM to the leader (the CLI stops its parts in order: an agent drains and closes its
 *   browsers), then, after a grace period, SIGKILL to the group AND to every process of its tree as it
 *   was just before the stop: Playwright starts each browser as the leader of yet another process group,
 *   and a browser whose node process died is re-parented away from the tree, so neither the group nor
 *   the tree alone finds everything;
 * - an exit nobody asked for (a crash, an OOM kill, someone killing it) is reported at once through
 *   `onUnexpectedExit`, so the bench fails with that reason instead of waiting for captures to time out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readAllStats, treeOf, type ProcStat } from './proc-tree.js';

/** Output kept for error messages and readiness checks: the start-up lines and the last words before a crash fit. */
const OUTPUT_KEEP_CHARS = 16_000;
/** Log lines copied to the bench's stderr per child: enough to see a problem, not a flood. */
const FORWARD_MAX_LINES = 20;
/** How long the leader may take to stop after SIGTERM (an agent drains its captures, a few seconds here) before SIGKILL. */
export const STOP_GRACE_MS = 20_000;

/** Every child still running: killed synchronously if the bench process exits without stopping them. */
const running = new Set<ManagedChild>();
process.on('exit', () => {
  for (const child of running) child.killNow();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface ChildOptions {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** which output lines are worth copying to the bench's stderr (warnings and errors) */
  forward: (line: string) => boolean;
  onUnexpectedExit: (error: Error) => void;
}

/** Counts the output lines that match a pattern (e.g. knex's query log) from the moment it is made. */
export interface LineCounter {
  pattern: RegExp;
  count: number;
}

export class ManagedChild {
  readonly name: string;
  private readonly child: ChildProcess;
  private output = '';
  private forwarded = 0;
  private stopping: Promise<void> | null = null;
  private exitText: string | null = null;
  private readonly exited: Promise<void>;
  /** counters fed with every complete output line (capture-cost.ts counts SQL statements this way) */
  readonly counters = new Set<LineCounter>();

  constructor(private readonly options: ChildOptions) {
    this.name = options.name;
    this.child = spawn(options.command, options.args, { env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(this);
    let pending = '';
    const onData = (data: Buffer): void => {
      const text = data.toString();
      this.output = (this.output + text).slice(-OUTPUT_KEEP_CHARS);
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        for (const counter of this.counters) if (counter.pattern.test(line)) counter.count += 1;
        this.forward(line);
      }
    };
    this.child.stdout?.on('data', onData);
    this.child.stderr?.on('data', onData);
    this.exited = new Promise((resolve) => {
      // 'error' is a spawn failure (no such binary): it counts as an exit.
      this.child.once('error', (error) => {
        this.exitText ??= `could not start: ${error.message}`;
        running.delete(this);
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        this.exitText = signal ? `killed by ${signal}` : `exited with code ${code}`;
        running.delete(this);
        resolve();
      });
    });
    void this.exited.then(() => {
      if (!this.stopping) options.onUnexpectedExit(new Error(`${this.name} ${this.exitText} while the bench was running; its last output:\n${this.tail()}`));
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.exitText === null;
  }

  /** The last lines of its output, for error messages. */
  tail(chars = 2_000): string {
    return this.output.slice(-chars).trimEnd();
  }

  private forward(line: string): void {
    if (!line.trim() || !this.options.forward(line) || this.forwarded > FORWARD_MAX_LINES) return;
    this.forwarded += 1;
    process.stderr.write(this.forwarded > FORWARD_MAX_LINES ? `[${this.name}] (more lines not shown)\n` : `[${this.name}] ${line.slice(0, 1_000)}\n`);
  }

  /** Waits until its output matches `pattern` (looked for in everything kept so far); fails if it exits first. */
  async waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (!this.alive) throw new Error(`${this.name} ${this.exitText} before printing ${pattern}; its output:\n${this.tail()}`);
      if (Date.now() > deadline) throw new Error(`${this.name} did not print ${pattern} within ${timeoutMs / 1000} s; its output:\n${this.tail()}`);
      await sleep(50);
    }
  }

  /** SIGTERM, then SIGKILL for whatever of its tree is left after the grace period. Safe to call twice. */
  stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopping ??= this.stopTree(graceMs);
    return this.stopping;
  }

  private async stopTree(graceMs: number): Promise<void> {
    const before = readAllStats();
    const tree = treeOf(before, [this.pid], new Set())
      .map((pid) => before.get(pid))
      .filter((s): s is ProcStat => s !== undefined);
    if (this.alive) {
      signal(this.pid, 'SIGTERM');
      await Promise.race([this.exited, sleep(graceMs)]);
    }
    if (this.alive) process.stderr.write(`${this.name} did not stop within ${graceMs / 1000} s of SIGTERM: killed\n`);
    signal(-this.pid, 'SIGKILL');
    // The groups its processes led (browsers), and the processes themselves if still the same ones.
    const ownGroup = before.get(process.pid)?.pgid;
    const groups = new Set(tree.map((s) => s.pgid).filter((g) => g > 1 && g !== ownGroup));
    const now = readAllStats();
    for (const stat of now.values()) {
      const wasInTree = tree.some((t) => t.pid === stat.pid && t.startTicks === stat.startTicks);
      if (wasInTree || groups.has(stat.pgid)) signal(stat.pid, 'SIGKILL');
    }
    await this.exited;
  }

  /** Last resort when the bench process exits: SIGKILL to its group, synchronously. */
  killNow(): void {
    signal(-this.pid, 'SIGKILL');
  }
}

/** Sends a signal, ignoring a process (or group) that is already gone. */
function signal(pid: number, name: NodeJS.Signals): void {
  if (pid === -1 || pid === 1 || pid === 0) return;
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
