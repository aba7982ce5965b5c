import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Temp entries browsers leave behind when they are killed instead of closed (an agent killed with -9, a
 * crashed browser): Playwright's profile folders, its artifacts folders, and the shared-memory files
 * Chromium keeps in /tmp under --disable-dev-shm-usage. Each is a few MB; a farm that restarts agents
 * would fill its disk over time.
 */
const STALE_PATTERNS = [/^playwright_chromiumdev_profile-/, /^playwright_firefoxdev_profile-/, /^playwright-artifacts-/, /^org\.chromium\.Chromium\./];

/** Younger entries may belong to a browser that is starting right now (its command line not yet visible). */
const MIN_AGE_MS = 60_000;

/** Paths live processes name on their command line (--user-data-dir, -profile) or hold open. */
export async function pathsInUse(): Promise<string[]> {
  const used: string[] = [];
  for (const pid of (await fs.readdir('/proc').catch(() => [] as string[])).filter((p) => /^\d+$/.test(p))) {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline) used.push(cmdline.replace(/\0/g, ' '));
    for (const fd of await fs.readdir(`/proc/${pid}/fd`).catch(() => [] as string[])) {
      const target = await fs.readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (target.startsWith('/')) used.push(target);
    }
  }
  return used;
}

/**
 * Removes the stale browser temp entries of os.tmpdir(): older than a minute and neither named on a live
 * process's command line nor held open by one. Returns what it removed. Linux only (/proc); elsewhere it
 * removes nothing.
 */
export async function removeStaleBrowserTemp(dir = os.tmpdir(), minAgeMs = MIN_AGE_MS): Promise<string[]> {
  if (!(await fs.stat('/proc/self').catch(() => null))) return [];
  const candidates: string[] = [];
  for (const name of await fs.readdir(dir)) {
    if (!STALE_PATTERNS.some((p) => p.test(name))) continue;
    const full = path.join(dir, name);
    const stat = await fs.lstat(full).catch(() => null);
    if (!stat || Date.now() - stat.mtimeMs < minAgeMs) continue;
    // Nothing names a live browser's artifacts folder (downloads, traces): only empty ones are taken, which
    // nothing of a live browser needs (shotfarm records no downloads or traces into them).
    if (name.startsWith('playwright-artifacts-') && (await fs.readdir(full).catch(() => ['?'])).length > 0) continue;
    candidates.push(full);
  }
  if (candidates.length === 0) return [];
  const used = await pathsInUse();
  const removed: string[] = [];
  for (const full of candidates) {
    if (used.some((u) => u.includes(full))) continue;
    await fs.rm(full, { recursive: true, force: true }).then(
      () => removed.push(full),
      () => undefined,
    );
  }
  return removed;
}
