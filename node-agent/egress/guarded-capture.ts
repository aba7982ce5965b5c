import type { CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import { blockedVerdict } from './blocked-verdict.js';
import type { EgressGuard } from './egress-guard.js';

/** A capture's output with the guard's refusals folded in, and the error when the page itself was refused. */
export interface GuardedOutput { output: CaptureOutput; pageError: string | null }

/**
 * Runs one capture through the egress guard, or without it (guard null: private targets are allowed, and
 * the capture goes direct or through its country proxy). Through the guard, the browser context's proxy is
 * the guard, and the country proxy, if any, is where the guard sends the traffic it lets through.
 */
export async function captureGuarded(guard: EgressGuard | null, spec: CaptureSpec, countryProxy: string | null, run: (spec: CaptureSpec) => Promise<CaptureOutput>): Promise<GuardedOutput> {
  if (!guard) return { output: await run(countryProxy ? { ...spec, proxy: countryProxy } : spec), pageError: null };
  const pass = guard.open(spec.id, countryProxy);
  try {
    const output = await run({ ...spec, proxy: pass.proxy });
    const verdict = blockedVerdict(spec.url, output.finalUrl, output.responseCode, pass.blocked(), pass.unreachable());
    return { output: { ...output, warnings: [...output.warnings, ...verdict.warnings] }, pageError: verdict.pageError };
  } finally {
    pass.close();
  }
}
