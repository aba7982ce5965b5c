import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { chromiumMainPids } from './process-census.js';

/**
 * Launches a chrome handle with the Playwright driver and tells its browser's main process id (found as
 * the Chromium child of this process that was not there before: launches must not overlap).
 */
export async function launchChromeHandle(): Promise<{ handle: BrowserHandle; pid: number }> {
  const before = new Set(await chromiumMainPids());
  const handle = await new PlaywrightDriver().launch('chrome', {});
  const pid = (await chromiumMainPids()).find((candidate) => !before.has(candidate));
  if (pid === undefined) {
    await handle.close();
    throw new Error('the launched browser process was not found');
  }
  return { handle, pid };
}
