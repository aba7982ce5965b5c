import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { useChromiumAndSite } from '../support/chromium-and-site.js';
import { launchChromeHandle } from '../support/chrome-handle.js';

/** The features each `--disable-features` switch of a command line names, in the order of the switches. */
function disabledFeatureSwitches(argv: string[]): string[][] {
  return argv.filter((arg) => arg.startsWith('--disable-features=')).map((arg) => arg.slice('--disable-features='.length).split(','));
}

/**
 * drivers/shared/chromium-flags.ts: Chromium honours only the last --disable-features switch, so the
 * service's own must repeat Playwright's; and without the omnibox features in it, every new context
 * builds two WebUI popups (renderers nobody sees) next to its page.
 */
describe('chromium flags', function () {
  const held = useChromiumAndSite();

  it("the driver's browser runs with a last --disable-features switch that keeps every feature Playwright disables", async function () {
    const { handle, pid } = await launchChromeHandle();
    try {
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      const switches = disabledFeatureSwitches(argv);
      // Playwright's own switch and ours: if Playwright stops sending one, this test has nothing to compare.
      expect(switches.length).to.equal(2);
      const effective = switches.at(-1)!;
      expect(effective).to.include.members(switches.flat());
      expect(effective).to.include.members(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']);
    } finally {
      await handle.close();
    }
  });

  it('a new context opens its page and nothing else (no omnibox popups)', async function () {
    const cdp = await held.browser.newBrowserCDPSession();
    const created: string[] = [];
    cdp.on('Target.targetCreated', (event) => created.push(`${event.targetInfo.type} ${event.targetInfo.url}`));
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    const context = await held.browser.newContext();
    try {
      await context.newPage();
      // Targets are announced before createTarget answers; one more round trip flushes any stragglers.
      await cdp.send('Target.getTargets');
      expect(created.filter((target) => !target.startsWith('browser '))).to.deep.equal(['page about:blank']);
    } finally {
      await context.close();
      await cdp.detach();
    }
  });
});
