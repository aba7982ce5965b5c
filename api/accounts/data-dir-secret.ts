import fs from 'node:fs';
import path from 'node:path';

/**
 * A secret the service makes for itself when none is configured (the bootstrap key, the JWT secret, the
 * app secrets key): generated once and kept in <data dir>/<name> (mode 0600), so a restart finds the
 * same one. Text, one line.
 */
export function keptInDataDir(dataDir: string, name: string, generate: () => string): string {
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = generate();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
