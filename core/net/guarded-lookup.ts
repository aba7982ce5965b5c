import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import type { PrivateAllowlist } from './private-allowlist.js';
import { resolveDestination, systemLookup, type HostLookup } from './resolve-destination.js';

/**
 * A `lookup` for sockets to hosts a USER chose (webhook URLs, S3 endpoints in app settings): the name is
 * resolved once and the socket connects to exactly the address that was checked, so a name cannot pass
 * the check and then resolve to a private address (DNS rebinding). Refusals carry code EPRIVATETARGET.
 * With private targets allowed it is the system lookup.
 */
export function guardedLookup(policy: { allowPrivateTargets: boolean; allowlist: PrivateAllowlist }, resolve: HostLookup = systemLookup): LookupFunction {
  if (policy.allowPrivateTargets) return dns.lookup;
  return (hostname, options, callback) => {
    resolveDestination(hostname, resolve, policy.allowlist).then(
      (destination) => {
        if (!destination.allowed) {
          const err: NodeJS.ErrnoException = new Error(
            `${hostname} resolves to ${destination.address}, a ${destination.kind} address: apps may not connect there (SHOTFARM_ALLOW_PRIVATE_TARGETS / SHOTFARM_PRIVATE_TARGET_ALLOWLIST)`,
          );
          err.code = 'EPRIVATETARGET';
          callback(err, '', 4);
          return;
        }
        const family = net.isIPv6(destination.address) ? 6 : 4;
        // Node's sockets ask for every address (`all`) when they race IPv4 and IPv6: they get the one checked.
        if ((options as dns.LookupOptions).all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, [{ address: destination.address, family }]);
        else callback(null, destination.address, family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 4),
    );
  };
}
