import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The built CLI, as `make build` leaves it. */
export const CLI_PATH = path.resolve('dist/bin/shotfarm.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `shotfarm <args>` with only PATH and the given settings in its environment (so nothing of the
 * test runner's environment leaks in); never throws: a failing command returns its exit code.
 */
export async function runCli(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI_PATH, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: timeoutMs });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
