import { NATS_PREFIX_PATTERN, NATS_PREFIX_RULE } from '../../core/config/nats-prefix.js';

/**
 * Every stream, bucket and subject of one shotfarm installation starts with its prefix, so tests (and
 * several installations) can share a NATS server without touching each other's data. The rule is the
 * configuration's (core/config/nats-prefix.ts); adapters built by hand (tests) are held to it here.
 */
export function assertPrefix(prefix: string): string {
  if (!NATS_PREFIX_PATTERN.test(prefix)) throw new Error(`NATS prefix must be ${NATS_PREFIX_RULE}: ${JSON.stringify(prefix)}`);
  return prefix;
}
