import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { acquireDataDirLock, DataDirInUse } from '../../api/db/data-dir-lock.js';
import { connectDatabase } from '../../api/db/connect.js';
import { pgliteLockFile } from '../../api/db/embedded-postgres.js';

/** data-dir-lock.js, compiled beside this test's folder (dist/test/integration → dist/api/db). */
const LOCK_MODULE = fileURLToPath(new URL('../../api/db/data-dir-lock.js', import.meta.url));

/**
 * A Node process that takes the lock `file` as `command`, prints `held`, then waits: for ever, or until its
 * standard input closes, when it exits normally (the lock goes with it).
 */
function holderProcess(file: string, command: string): { child: ChildProcess; held: Promise<void>; exited: Promise<number | null> } {
  const script = `
    const { acquireDataDirLock } = await import(${JSON.stringify(LOCK_MODULE)});
    acquireDataDirLock(${JSON.stringify(file)}, ${JSON.stringify(command)});
    process.stdout.write('held\\n');
    process.stdin.on('end', () => process.exit(0));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before taking the lock`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, held, exited };
}

const refusal = (fn: () => unknown): DataDirInUse => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DataDirInUse) return err;
    throw err;
  }
  throw new Error('the lock was not refused');
};

describe('the embedded database folder is held by one process (api/db/data-dir-lock.ts)', function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-lock-'));
    file = path.join(dir, 'pglite.lock');
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second opener in another process, naming the holder; the lock goes when the holder exits', async () => {
    const holder = holderProcess(file, 'shotfarm serve');
    children.push(holder.child);
    await holder.held;
    const err = refusal(() => acquireDataDirLock(file));
    expect(err.holder.pid).to.equal(holder.child.pid);
    expect(err.message).to.equal(
      `the embedded database ${path.join(dir, 'pglite')} is in use by process ${holder.child.pid} (shotfarm serve, since ${err.holder.since}): one process at a time may open it`,
    );
    holder.child.stdin?.end();
    expect(await holder.exited).to.equal(0);
    expect(fs.existsSync(file), 'removed on exit').to.equal(false);
    acquireDataDirLock(file).release();
  });

  it('refuses a second opener in the same process; release() frees it', () => {
    const lock = acquireDataDirLock(file);
    expect(refusal(() => acquireDataDirLock(file)).holder.pid).to.equal(process.pid);
    lock.release();
    expect(fs.existsSync(file)).to.equal(false);
    acquireDataDirLock(file).release();
  });

  it('takes over a lock left by a killed holder (SIGKILL: nothing removed it)', async () => {
    const holder = holderProcess(file, 'shotfarm serve');
    children.push(holder.child);
    await holder.held;
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(fs.existsSync(file), 'left behind').to.equal(true);
    const lock = acquireDataDirLock(file, 'the next opener');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).to.include({ pid: process.pid, command: 'the next opener' });
    lock.release();
  });

  it('takes over a lock whose pid now runs another process (pid reused: its start time differs)', async () => {
    const other = spawn('sleep', ['60']);
    children.push(other);
    const mine = JSON.parse(fs.readFileSync(acquireDataDirLockAndRead(file), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...mine, pid: other.pid, startTicks: 1, token: 'an earlier life' }));
    const lock = acquireDataDirLock(file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).pid).to.equal(process.pid);
    lock.release();
  });

  it('never takes over a holder on another host (it cannot be checked from here): the refusal says which file to delete', () => {
    fs.writeFileSync(file, JSON.stringify({ pid: 4242, host: 'another-host', boot: 'x', startTicks: 1, command: 'shotfarm serve', since: '2026-01-01T00:00:00.000Z', token: 't' }));
    const err = refusal(() => acquireDataDirLock(file));
    expect(err.message).to.equal(
      `the embedded database ${path.join(dir, 'pglite')} is in use by process 4242 on host another-host (shotfarm serve, since 2026-01-01T00:00:00.000Z): one process at a time may open it; if that process is gone (this host cannot check it), delete ${file}`,
    );
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).host, 'left as it was').to.equal('another-host');
  });

  it('connectDatabase on a held folder throws DataDirInUse before opening anything, and frees the folder on destroy()', async () => {
    const db = await connectDatabase({ databaseUrl: null, dataDir: dir });
    try {
      await db.raw('select 1');
      const err = await connectDatabase({ databaseUrl: null, dataDir: dir }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(DataDirInUse);
      expect(fs.existsSync(pgliteLockFile(path.join(dir, 'pglite')))).to.equal(true);
    } finally {
      await db.destroy();
    }
    expect(fs.existsSync(pgliteLockFile(path.join(dir, 'pglite'))), 'released by destroy()').to.equal(false);
    await (await connectDatabase({ databaseUrl: null, dataDir: dir })).destroy();
  });

  it('a database destroyed before any query is closed too: its folder is free at once and nothing reads it afterwards', async () => {
    const late: unknown[] = [];
    const onLate = (reason: unknown): void => void late.push(reason);
    process.on('unhandledRejection', onLate);
    try {
      await (await connectDatabase({ databaseUrl: null, dataDir: dir })).destroy();
      expect(fs.existsSync(pgliteLockFile(path.join(dir, 'pglite'))), 'released by destroy()').to.equal(false);
      fs.rmSync(path.join(dir, 'pglite'), { recursive: true, force: true });
      // A database left open went on reading its folder: an ErrnoError (ENOENT) rejected with no handler within a second.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(late.map(String)).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onLate);
    }
  });
});

/** Takes and releases the lock, answering its file as this process wrote it (a real holder's fields). */
function acquireDataDirLockAndRead(file: string): string {
  const lock = acquireDataDirLock(file);
  const copy = `${file}.copy`;
  fs.copyFileSync(file, copy);
  lock.release();
  return copy;
}
