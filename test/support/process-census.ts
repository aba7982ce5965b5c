import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The browser binaries the Playwright driver runs on this machine (Debian's Chromium and Firefox ESR). */
export const BROWSER_PROCESS = /\/usr\/lib\/chromium\/chromium|firefox-esr/;

/** The processes a Selenium Grid run involves: the grid's JVM, chromedriver, and Debian's Chromium. */
export const SELENIUM_PROCESS = /selenium-server[^ ]*\.jar|\/usr\/bin\/chromedriver|\/usr\/lib\/chromium\/chromium/;

interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  stat: string;
  args: string;
}

/** Every process on the machine, from `ps`. */
async function processTable(): Promise<ProcessRow[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args=']);
  return stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), pgid: Number(match[3]), stat: match[4]!, args: match[5]! }));
}

/**
 * Live processes matching `pattern` that this node process is responsible for: its descendants, and
 * every member of the given process groups. Groups matter because a grid's JVM starts chromedriver,
 * which starts Chromium: when one of them dies its children are re-parented to init and would drop
 * out of a descendants-only count, but they keep their process group. Zombies (state Z) have exited
 * already and are not counted: on a machine whose init does not reap, they stay listed. Only our own
 * processes count: other test runs on the machine may have browsers of their own.
 */
export async function countOwnProcesses(pattern: RegExp, groups: number[]): Promise<number> {
  const rows = await processTable();
  const ours = new Set<number>([process.pid]);
  // Parents are listed before children in most cases, but not always: repeat until nothing is added.
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (!ours.has(row.pid) && ours.has(row.ppid)) {
        ours.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((row) => !row.stat.startsWith('Z') && (ours.has(row.pid) || groups.includes(row.pgid)) && pattern.test(row.args)).length;
}

/** Polls until the count is down to `expected` (processes take a moment to exit) or `timeoutMs` passes. */
export async function waitForOwnProcesses(pattern: RegExp, groups: number[], expected: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  let count = await countOwnProcesses(pattern, groups);
  while (count > expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    count = await countOwnProcesses(pattern, groups);
  }
  return count;
}

/** PIDs of Chromium main processes started by this node process (children carry --type=). */
export async function chromiumMainPids(): Promise<number[]> {
  return (await processTable()).filter((row) => row.ppid === process.pid && /\/usr\/lib\/chromium\/chromium/.test(row.args) && !/--type=/.test(row.args)).map((row) => row.pid);
}
