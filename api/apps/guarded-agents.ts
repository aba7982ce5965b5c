import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { privateKindOf } from '../../core/net/ip-ranges.js';
import type { PrivateAllowlist } from '../../core/net/private-allowlist.js';
import { guardedLookup } from '../../core/net/guarded-lookup.js';
import type { HostLookup } from '../../core/net/resolve-destination.js';

/** HTTP(S) agents for connections to hosts a user chose, and the lookup they connect through. */
export interface GuardedEgress {
  lookup: LookupFunction;
  agent(protocol: string): http.Agent;
}

type ConnectCallback = (err: Error | null, socket?: Duplex) => void;

/**
 * Node connects to an address literal (`http://127.0.0.1/`, `http://[::1]/`) without calling `lookup`,
 * so the guard checks literals itself before a socket exists; names go through the guarded lookup,
 * which checks the address they resolve to. A refusal reaches the request as an EPRIVATETARGET error.
 */
export function guardedEgress(policy: { allowPrivateTargets: boolean; allowlist: PrivateAllowlist }, resolve?: HostLookup): GuardedEgress {
  const lookup = guardedLookup(policy, resolve);
  const refusal = (host: string): NodeJS.ErrnoException | null => {
    const address = host.replace(/^\[(.*)\]$/, '$1');
    if (policy.allowPrivateTargets || !net.isIP(address)) return null;
    const kind = privateKindOf(address);
    if (kind === null || policy.allowlist.addressAllowed(address)) return null;
    const err: NodeJS.ErrnoException = new Error(`${address} is a ${kind} address: apps may not connect there (SHOTFARM_ALLOW_PRIVATE_TARGETS / SHOTFARM_PRIVATE_TARGET_ALLOWLIST)`);
    err.code = 'EPRIVATETARGET';
    return err;
  };
  class GuardedHttpAgent extends http.Agent {
    override createConnection(options: net.NetConnectOpts & { host?: string }, callback: ConnectCallback): Duplex | null | undefined {
      const err = refusal(String(options.host ?? ''));
      if (err) return void callback(err);
      return super.createConnection({ ...options, lookup }, callback);
    }
  }
  class GuardedHttpsAgent extends https.Agent {
    override createConnection(options: net.NetConnectOpts & { host?: string }, callback: ConnectCallback): Duplex | null | undefined {
      const err = refusal(String(options.host ?? ''));
      if (err) return void callback(err);
      return super.createConnection({ ...options, lookup }, callback);
    }
  }
  // No keep-alive: app runs are minutes apart, and a pooled socket would outlive the check of its address.
  const agents = { http: new GuardedHttpAgent({ keepAlive: false }), https: new GuardedHttpsAgent({ keepAlive: false }) };
  return { lookup, agent: (protocol) => (protocol === 'https:' ? agents.https : agents.http) };
}

/**
 * Agents for connections to hosts the OPERATOR configured (the service's own S3 endpoint, which in a
 * farm is often a private address such as the compose file's MinIO): configuration, not user input, so
 * no private-address check. Never hand these to a connection whose host a user chose.
 */
export const operatorEgress: { agent(protocol: string): http.Agent } = (() => {
  const agents = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) };
  return { agent: (protocol: string) => (protocol === 'https:' ? agents.https : agents.http) };
})();
