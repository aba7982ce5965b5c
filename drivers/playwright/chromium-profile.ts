import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_PROFILE_PREFERENCES } from '../shared/chromium-flags.js';

/**
 * Some Chromium settings exist only as profile preferences (CHROMIUM_PROFILE_PREFERENCES: WebRTC's UDP
 * policy), and Playwright gives every launch a fresh, empty profile folder it names itself; it refuses a
 * --user-data-dir of ours, and puts its own last on the command line, so Chromium would take it anyway.
 *
 * So Chromium starts through a small sh wrapper that writes the preferences into the profile folder named by
 * --user-data-dir, then execs Chromium in its own place (same process, same pipe to Playwright). Capture
 * contexts are off-the-record profiles of that profile and read its preferences through. Without a
 * --user-data-dir the wrapper refuses to start: a browser without the preferences never runs.
 */
function script(binary: string): string {
  const preferences = JSON.stringify(CHROMIUM_PROFILE_PREFERENCES);
  if (preferences.includes("'")) throw new Error('the Chromium preferences cannot contain a single quote');
  return `#!/bin/sh
# shotfarm: Chromium with its profile preferences (drivers/playwright/chromium-profile.ts).
dir=
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*) dir="\${arg#--user-data-dir=}" ;;
  esac
done
[ -n "$dir" ] || { echo "shotfarm: no --user-data-dir to write Chromium's preferences in" >&2; exit 1; }
mkdir -p "$dir/Default" && printf '%s' '${preferences}' > "$dir/Default/Preferences" || exit 1
exec ${JSON.stringify(binary)} "$@"
`;
}

/** The path of the wrapper for a Chromium binary, written once per binary and preferences (and rewritten if they change). */
export function withProfilePreferences(binary: string): string {
  const body = script(binary);
  const file = path.join(os.tmpdir(), `shotfarm-chromium-prefs-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.sh`);
  if (!fs.existsSync(file)) {
    // Write then rename, so two processes starting at once never run a half-written file.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, body, { mode: 0o755 });
    fs.renameSync(temp, file);
  }
  return file;
}
