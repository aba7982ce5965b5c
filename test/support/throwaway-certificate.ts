import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A key and a self-signed certificate in PEM, for a test's TLS server. */
export interface Certificate {
  key: string;
  cert: string;
}

/**
 * A self-signed certificate for `hosts`, made now with the `openssl` CLI (node:crypto makes keys but not
 * X.509 certificates) and valid for one day: no key is kept in the repository for names of public hosts.
 * An EC P-256 key takes a few milliseconds, where RSA-2048 takes ~100 ms on this machine.
 */
export async function throwawayCertificate(hosts: readonly string[]): Promise<Certificate> {
  const folder = await mkdtemp(join(tmpdir(), 'throwaway-cert-'));
  try {
    const key = join(folder, 'key.pem');
    const cert = join(folder, 'cert.pem');
    const names = hosts.map((host) => `DNS:${host}`).join(',');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=shotfarm throwaway test certificate',
      '-addext',
      `subjectAltName=${names}`,
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
