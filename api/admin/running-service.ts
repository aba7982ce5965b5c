import { timingSafeEqual, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { keptInDataDir } from '../accounts/data-dir-secret.js';

/**
 * How an operator command finds the service that holds the embedded database: the service writes where its
 * operator endpoint listens into `<data dir>/running-service.json` (mode 0600) once it listens, and removes
 * the file when it stops. A file left by a killed service names an endpoint nobody answers on: the command
 * then opens the database itself (the lock of a dead holder is taken over).
 */
export interface RunningService {
  pid: number;
  /** the operator endpoint, on loopback */
  operator_url: string;
  /** where the service's API answers, as its own welcome line says */
  service_url: string;
  /** the public URL its links use (SHOTFARM_PUBLIC_URL, else service_url) */
  public_url: string;
}

const FILE = 'running-service.json';

/**
 * The data folder's own secret the operator endpoint asks for: whoever can read the data folder (the
 * operator who runs the service) can act on its database, nobody else on the machine can, even through
 * the loopback port every local user can reach. Generated once, kept in <data dir>/operator-secret (0600).
 */
export const operatorSecret = (dataDir: string): string => keptInDataDir(dataDir, 'operator-secret', () => randomBytes(32).toString('base64url'));

/** Whether `presented` is the secret, in constant time. */
export function isOperatorSecret(presented: string, secret: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(presented), digest(secret));
}

export function announceRunningService(dataDir: string, service: RunningService): void {
  fs.writeFileSync(path.join(dataDir, FILE), `${JSON.stringify(service)}\n`, { mode: 0o600 });
}

/** Removes the file if it still names this process (a second service may have written its own since). */
export function withdrawRunningService(dataDir: string): void {
  if (runningService(dataDir)?.pid === process.pid) fs.rmSync(path.join(dataDir, FILE), { force: true });
}

/** The service the data folder's file names, or null when there is none (or the file is not one of ours). */
export function runningService(dataDir: string): RunningService | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dataDir, FILE), 'utf8')) as Partial<RunningService>;
    if (typeof parsed.pid !== 'number' || typeof parsed.operator_url !== 'string' || typeof parsed.service_url !== 'string' || typeof parsed.public_url !== 'string') return null;
    return parsed as RunningService;
  } catch {
    return null;
  }
}
