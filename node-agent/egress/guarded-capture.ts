import type { CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import { systemLookup } from '../../core/net/resolve-destination.js';
import { browserFailure, type CertificateProbe } from '../browser-failure.js';
import type { PageFailure } from '../page-failure.js';
import { blockedVerdict } from './blocked-verdict.js';
import type { EgressGuard } from './egress-guard.js';
import { probeCertificate } from './tls-certificate.js';
import { openConnection } from './upstream.js';

/** A capture's output with the guard's refusals folded in, and why there is no page when there is none. */
export interface GuardedOutput {
  output: CaptureOutput;
  pageFailure: PageFailure | null;
}

/**
 * Runs one capture through the egress guard, or without it (guard null: private targets are allowed, and
 * the capture goes direct or through its country proxy). Through the guard, the browser context's proxy is
 * the guard, and the country proxy, if any, is where the guard sends the traffic it lets through.
 * A page that got no answer is explained by the guard when it knows why (blocked, no such host, refused),
 * else by the browser's own error (a reset, a timeout, a refused certificate: past the guard, in the
 * browser's TLS), read along the same route the capture took.
 */
export async function captureGuarded(guard: EgressGuard | null, spec: CaptureSpec, countryProxy: string | null, run: (spec: CaptureSpec) => Promise<CaptureOutput>): Promise<GuardedOutput> {
  if (!guard) {
    const output = await run(countryProxy ? { ...spec, proxy: countryProxy } : spec);
    return { output, pageFailure: await browserFailure(output, spec, directProbe(countryProxy)) };
  }
  const pass = await guard.open(spec.id, countryProxy);
  try {
    const output = await run({ ...spec, proxy: pass.proxy });
    // A source's own document is never fetched; its base_url's host stands for the page's: a source whose
    // relative links lead into a private network fails as a page there would.
    const verdict = blockedVerdict(spec.source?.baseUrl ?? spec.url, output.finalUrl, output.responseCode, pass.blocked(), pass.unreachable());
    const probe: CertificateProbe = async (at) => {
      const socket = await guard.connect(at.host, at.port, countryProxy);
      return socket ? probeCertificate(socket, at.host) : null;
    };
    const pageFailure = verdict.pageFailure ?? (await browserFailure(output, spec, probe));
    return { output: { ...output, warnings: [...output.warnings, ...verdict.warnings] }, pageFailure };
  } finally {
    pass.close();
  }
}

/** Without the guard: the system's resolver, then straight to the address or through the country proxy. */
function directProbe(countryProxy: string | null): CertificateProbe {
  return async (at) => {
    const [address] = await systemLookup(at.host);
    if (address === undefined) return null;
    return probeCertificate(await openConnection(address, at.port, countryProxy), at.host);
  };
}
