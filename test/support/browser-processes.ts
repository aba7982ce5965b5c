import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The browser binaries this machine runs (Debian's Chromium and Firefox ESR). */
const BROWSER_PROCESS = /\/usr\/lib\/chromium\/chromium|firefox-esr/;

/**
 * Browser processes (main and children) descended from THIS node process, counted with `ps`. Only
 * our own tree counts: other test runs on the machine may have browsers of their own.
 */
export async function countBrowserProcesses(): Promise<number> {
  const { stdout } = await run('ps', ['-eo', 'pid=,ppid=,args=']);
  const rows = stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }));
  const ours = new Set<number>([process.pid]);
  // Parents are listed before children in most cases, but not always: repeat until nothing is added.
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (!ours.has(row.pid) && ours.has(row.ppid)) {
        ours.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((row) => ours.has(row.pid) && BROWSER_PROCESS.test(row.args)).length;
}

/** PIDs of Chromium main processes started by this node process (children carry --type=). */
export async function chromiumMainPids(): Promise<number[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,ppid=,args=']);
  return stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .filter((match) => Number(match[2]) === process.pid && /\/usr\/lib\/chromium\/chromium/.test(match[3]!) && !/--type=/.test(match[3]!))
    .map((match) => Number(match[1]));
}

/** Polls until the count is back to `expected` (browsers take a moment to exit) or `timeoutMs` passes. */
export async function waitForBrowserProcesses(expected: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  let count = await countBrowserProcesses();
  while (count > expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    count = await countBrowserProcesses();
  }
  return count;
}
