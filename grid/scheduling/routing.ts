import type { BrowserName } from '../../core/capture-spec.js';
import type { NodeStatus } from '../../core/contracts/node-registry.js';

export interface Route {
  /** only agents egressing from this country may take the job; null = any agent */
  egressCountry: string | null;
  proxy: string | null;
  /** said on the record: `agent:<cc>`, `proxy:<cc>` or `any` */
  routing: string;
}

/**
 * Country routing: a job for country X goes to an agent that egresses from X, else through the proxy
 * configured for X, else to any agent. Geolocation, timezone and language follow the country in every
 * case (they are in the CaptureSpec already).
 */
export function routeJob(country: string, browser: BrowserName, nodes: NodeStatus[], proxies: Record<string, string>): Route {
  const servedByAgent = nodes.some((n) => !n.draining && n.countries.includes(country) && n.browsers.some((b) => b.name === browser));
  if (servedByAgent) return { egressCountry: country, proxy: null, routing: `agent:${country}` };
  const proxy = proxies[country];
  if (proxy) return { egressCountry: null, proxy, routing: `proxy:${country}` };
  return { egressCountry: null, proxy: null, routing: 'any' };
}

/**
 * The route a record was given when it was created (its `routing`), to queue its job again after a
 * restart with the same decision. A country proxy that is no longer configured leaves the job to any agent.
 */
export function routeOfRecord(routing: string, proxies: Record<string, string>): Route {
  const [how, country = ''] = routing.split(':');
  if (how === 'agent' && country) return { egressCountry: country, proxy: null, routing };
  return { egressCountry: null, proxy: (how === 'proxy' ? proxies[country] : undefined) ?? null, routing };
}
