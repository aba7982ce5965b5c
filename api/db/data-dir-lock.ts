import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';

/**
 * The embedded database's folder is held by one process at a time. Two PGlite instances on one folder are
 * two Postgres servers writing the same files with no shared memory between them: each overwrites the
 * other's pages and WAL, and what one inserts the other never sees (issue 25: `users create` next to a
 * running `serve` printed a user the service did not have). PGlite has no lock of its own (it runs
 * single-user mode, which skips postmaster.pid), so the opener takes this one first.
 *
 * The lock is a file beside the folder holding its holder: pid, host, boot and the process's start time.
 * It is created atomically (link(2) of a complete file: a reader never sees a half-written holder), removed
 * when the database closes and when the process exits, and taken over when its holder is dead: a pid that
 * no longer runs, or runs another process (its start time differs: pids are reused, and a container's
 * serve is pid 1 in every life), or a boot that is over. A holder on another host (two containers
 * sharing a volume) cannot be checked from here and is never taken over.
 */
export interface LockHolder {
  pid: number;
  host: string;
  /** /proc/sys/kernel/random/boot_id: a lock from before a reboot is stale; '' where unknown */
  boot: string;
  /** the process's start time in clock ticks since boot (/proc/<pid>/stat field 22); null where unknown */
  startTicks: number | null;
  /** what the holder runs (`shotfarm serve`), for the operator reading the refusal */
  command: string;
  since: string;
}

/** A second opener of a held folder: the message names the holder and says what to do. */
export class DataDirInUse extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder,
  ) {
    const here = holder.host === os.hostname();
    const where = here ? `process ${holder.pid}` : `process ${holder.pid} on host ${holder.host}`;
    const remote = here ? '' : `; if that process is gone (this host cannot check it), delete ${lockFile}`;
    super(`the embedded database ${lockFile.replace(/\.lock$/, '')} is in use by ${where} (${holder.command || 'unknown command'}, since ${holder.since}): one process at a time may open it${remote}`);
    this.name = 'DataDirInUse';
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours; safe to call twice. */
  release(): void;
}

/** Lock files this process holds, removed on exit whatever way the process ends short of SIGKILL. */
const held = new Map<string, string>();
let exitHookInstalled = false;

/** A takeover loses to a concurrent one at most a few times: each round someone else won the file. */
const MAX_ROUNDS = 5;

/** Takes the lock `file` for this process, or throws DataDirInUse naming its live holder. */
export function acquireDataDirLock(file: string, command = commandLine()): DataDirLock {
  if (held.has(file)) throw new DataDirInUse(file, { ...describeSelf(command), since: 'earlier in this process' });
  const me: LockHolder = { ...describeSelf(command), since: new Date().toISOString() };
  const token = randomBytes(8).toString('hex');
  const body = `${JSON.stringify({ ...me, token })}\n`;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    if (createExclusive(file, body)) return hold(file, token);
    const current = readHolder(file);
    // Gone between our attempt and the read: try again.
    if (current === 'missing') continue;
    if (current !== 'unreadable' && holderAlive(current)) throw new DataDirInUse(file, current);
    removeIfUnchanged(file, current);
  }
  throw new Error(`could not take the lock ${file}: other processes kept taking it`);
}

function hold(file: string, token: string): DataDirLock {
  held.set(file, token);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const [f, t] of held) removeIfOurs(f, t);
    });
  }
  return {
    file,
    release: () => {
      if (held.get(file) !== token) return;
      held.delete(file);
      removeIfOurs(file, token);
    },
  };
}

/**
 * Writes the holder to a private temporary file and links it to `file`: link(2) fails when `file` exists,
 * and when it succeeds the lock appears complete. False when someone holds it.
 */
function createExclusive(file: string, body: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temp, body, { mode: 0o600 });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

type ReadHolder = (LockHolder & { token?: string; raw: string }) | 'missing' | 'unreadable';

function readHolder(file: string): ReadHolder {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockHolder> & { token?: string };
    if (!Number.isInteger(parsed.pid) || typeof parsed.host !== 'string') return 'unreadable';
    return {
      pid: parsed.pid as number,
      host: parsed.host,
      boot: typeof parsed.boot === 'string' ? parsed.boot : '',
      startTicks: typeof parsed.startTicks === 'number' ? parsed.startTicks : null,
      command: typeof parsed.command === 'string' ? parsed.command : '',
      since: typeof parsed.since === 'string' ? parsed.since : 'an unknown time',
      token: parsed.token,
      raw,
    };
  } catch {
    // Not ours (edited by hand, or a disk that lost it): nobody can be named as holding it.
    return 'unreadable';
  }
}

/** Whether the recorded holder still runs. Only a holder on this host can be checked: another host's is taken as alive. */
export function holderAlive(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return true;
  const boot = bootId();
  if (holder.boot && boot && holder.boot !== boot) return false;
  // Our own pid without our own lock (we checked `held` first): a previous life of this process number.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const ticks = startTicks(holder.pid);
  return holder.startTicks === null || ticks === null || ticks === holder.startTicks;
}

/** Removes a stale lock unless it changed since it was read (someone else took it over meanwhile). */
function removeIfUnchanged(file: string, seen: ReadHolder): void {
  // Renamed aside first: the rename is atomic, so of two processes taking over only one moves the file.
  const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = fs.readFileSync(aside, 'utf8');
  const expected = typeof seen === 'string' ? null : seen.raw;
  // What we moved is a live holder's new lock (taken between our read and our rename): put it back.
  if (expected !== null && moved !== expected) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // Someone holds `file` again already; theirs stands.
    }
  }
  fs.rmSync(aside, { force: true });
}

function removeIfOurs(file: string, token: string): void {
  const current = readHolder(file);
  if (typeof current !== 'string' && current.token === token) fs.rmSync(file, { force: true });
}

function describeSelf(command: string): Omit<LockHolder, 'since'> {
  return { pid: process.pid, host: os.hostname(), boot: bootId() ?? '', startTicks: startTicks(process.pid), command };
}

/** `shotfarm serve` for `node dist/bin/shotfarm.js serve`: the script's name and its first argument. */
function commandLine(): string {
  const script = process.argv[1] ?? '';
  const name = /shotfarm\.js$/.test(script) ? 'shotfarm' : script.split('/').pop() || 'node';
  return [name, ...process.argv.slice(2, 4)].join(' ').slice(0, 120);
}

function bootId(): string | null {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces and parentheses). */
function startTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}
