import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Firefox over WebDriver BiDi talks to Playwright through a WebSocket, not a pipe, so when the node
 * process dies (an agent killed with SIGKILL, an OOM kill) nothing tells Firefox, and it lives on as an
 * orphan holding memory and CPU. Chromium uses a pipe and exits by itself.
 *
 * The remedy: launch Firefox through a small sh wrapper that runs it as a child and watches the node
 * process that started the wrapper; when node is gone it stops Firefox (TERM, then KILL 2 s later).
 * Playwright's own close and kill still work: the wrapper leads the process group Playwright kills.
 * Non-interactive sh gives a background child /dev/null as stdin, which BiDi mode does not use.
 * A --shotfarm-browser=<id> argument is for the wrapper's own command line, where the memory ceiling
 * finds the browser (drivers/shared/process-memory-watch.ts): it is dropped before Firefox starts.
 */
function script(binary: string): string {
  return `#!/bin/sh
# shotfarm: run ${binary} and stop it when the node process that launched us is gone (drivers/playwright/die-with-parent.ts).
node_pid=$PPID
for arg do
  shift
  case "$arg" in --shotfarm-browser=*) ;; *) set -- "$@" "$arg" ;; esac
done
${JSON.stringify(binary)} "$@" &
browser=$!
trap 'kill -TERM "$browser" 2>/dev/null' TERM INT HUP
while kill -0 "$browser" 2>/dev/null; do
  if ! kill -0 "$node_pid" 2>/dev/null; then
    kill -TERM "$browser" 2>/dev/null; sleep 2; kill -KILL "$browser" 2>/dev/null; exit 0
  fi
  sleep 1
done
wait "$browser"
`;
}

/** The path of the wrapper for a browser binary, written once per binary (and rewritten if it changed). */
export function dieWithParent(binary: string): string {
  const body = script(binary);
  const file = path.join(os.tmpdir(), `shotfarm-die-with-parent-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.sh`);
  if (!fs.existsSync(file)) {
    // Write then rename, so two processes starting at once never run a half-written file.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, body, { mode: 0o755 });
    fs.renameSync(temp, file);
  }
  return file;
}
