import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathsInUse, removeStaleBrowserTemp } from '../../node-agent/stale-browser-temp.js';
import { countOwnProcesses, waitForOwnProcesses } from './process-census.js';

/**
 * A mocha plugin (.mocharc.cjs `require`): no browser, driver or ffmpeg process the tests started is still
 * running once they are done, and no temp folder they made remains after the WHOLE suite.
 *
 * Processes are checked by root hooks, which run where the tests run: once after the whole suite when the
 * files run one after another in one process; after each file in a worker process when the suite runs
 * files side by side (.mocharc.cjs), where a worker runs one file at a time, so its descendants are that
 * file's. Temp folders are checked by the global fixtures, which run once in mocha's main process, before
 * any file and after every file (and every worker) has ended: files running side by side each make temp
 * folders in the same os.tmpdir(), so only the end of the whole run can tell a leak from a folder in use.
 *
 * Browser temp folders of browsers the fault tests killed are removed the way an agent start removes them
 * (removeStaleBrowserTemp, here without the one-minute grace); anything that is still there afterwards is
 * held by a live process, or is a test's data folder nobody removed: a leak, and the suite fails.
 */
const PROCESSES = /\/usr\/lib\/chromium\/chromium|firefox-esr|chromedriver|ffmpeg|selenium-server[^ ]*\.jar/;
// Not a leak: the Firefox launcher's watchdog script (drivers/playwright/die-with-parent.ts) is written once
// per browser binary and reused by every later launch, on purpose; so is Chromium's preferences wrapper
// (drivers/playwright/chromium-profile.ts).
const TEMP = /^(playwright_chromiumdev_profile-|playwright_firefoxdev_profile-|playwright-artifacts-|org\.chromium\.Chromium\.|shotfarm-(?!die-with-parent-|chromium-prefs-))/;

let tempBefore = new Set<string>();

const tempEntries = (): string[] => fs.readdirSync(os.tmpdir()).filter((name) => TEMP.test(name));

export const mochaHooks = {
  async afterAll(this: { timeout(ms: number): void }): Promise<void> {
    this.timeout(60_000);
    const left = await waitForOwnProcesses(PROCESSES, [], 0, 30_000);
    if (left > 0) throw new Error(`${left} browser/driver/ffmpeg process(es) started by the tests are still running (${await countOwnProcesses(PROCESSES, [])} now)`);
  },
};

export function mochaGlobalSetup(): void {
  tempBefore = new Set(tempEntries());
}

export async function mochaGlobalTeardown(): Promise<void> {
  const removed = (await removeStaleBrowserTemp(os.tmpdir(), 0)).filter((p) => !tempBefore.has(p.slice(os.tmpdir().length + 1)));
  // Entries a live process still names or holds belong to that process: every process of the tests is
  // gone (checked by the root hook above), so it is another program on the machine (a developer's running service).
  const inUse = await pathsInUse();
  const remaining = tempEntries().filter((name) => !tempBefore.has(name) && !inUse.some((u) => u.includes(path.join(os.tmpdir(), name))));
  process.stdout.write(`leak check: no test process left; ${removed.length} temp folder(s) of killed browsers removed as an agent start does; ${remaining.length} left\n`);
  if (remaining.length > 0) throw new Error(`temp entries the tests left behind: ${remaining.slice(0, 20).join(', ')}${remaining.length > 20 ? ' …' : ''}`);
}
