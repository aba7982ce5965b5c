import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeStaleBrowserTemp } from '../../node-agent/stale-browser-temp.js';

describe('stale browser temp folders (what killed browsers leave in /tmp)', () => {
  it('removes old, unused profile folders and shared-memory files; keeps what a live process names or holds, young entries and other files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'janitor-'));
    const old = Date.now() / 1000 - 3600;
    const make = (name: string, folder: boolean, age = old): string => {
      const full = path.join(dir, name);
      if (folder) fs.mkdirSync(full);
      else fs.writeFileSync(full, 'x');
      fs.utimesSync(full, age, age);
      return full;
    };
    const stale = [
      make('playwright_chromiumdev_profile-dead', true),
      make('playwright_firefoxdev_profile-dead', true),
      make('playwright-artifacts-empty', true),
      make('org.chromium.Chromium.dead', false),
    ];
    const named = make('playwright_chromiumdev_profile-live', true);
    const held = make('org.chromium.Chromium.held', false);
    const young = make('playwright_chromiumdev_profile-young', true, Date.now() / 1000);
    const artifacts = make('playwright-artifacts-busy', true);
    fs.writeFileSync(path.join(artifacts, 'download'), 'x');
    fs.utimesSync(artifacts, old, old);
    const unrelated = make('something-else', true);
    // A live "browser" naming its profile on the command line, and an open handle on a shared-memory file.
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', '--', `--user-data-dir=${named}`], { stdio: 'ignore' });
    const fd = fs.openSync(held, 'r');
    try {
      await new Promise((r) => setTimeout(r, 200));
      const removed = await removeStaleBrowserTemp(dir);
      expect(removed.sort(), removed.join(' ')).to.deep.equal(stale.sort());
      for (const kept of [named, held, young, artifacts, unrelated]) expect(fs.existsSync(kept), kept).to.equal(true);
    } finally {
      fs.closeSync(fd);
      live.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
