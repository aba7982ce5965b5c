/**
 * Every stream, bucket and subject of one shotfarm installation starts with its prefix, so tests (and
 * several installations) can share a NATS server without touching each other's data. The prefix is used
 * both as a subject token and inside stream/bucket names, so it must be valid in both: letters, digits,
 * `_` and `-`.
 */
export function assertPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(prefix)) throw new Error(`NATS prefix must be 1-64 letters, digits, '_' or '-': ${JSON.stringify(prefix)}`);
  return prefix;
}

/** The prefix a service uses when its configuration names none. */
export const DEFAULT_NATS_PREFIX = 'shotfarm';
