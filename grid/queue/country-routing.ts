import type { CaptureJob } from '../../core/contracts/job-queue.js';

/** The country token of jobs any agent may take (no egress country asked for). */
export const ANY_COUNTRY = 'any';

/** A country code as routing compares it: lower case, two letters (ISO 3166-1 alpha-2). */
export function normalizeCountry(country: string): string {
  const code = country.trim().toLowerCase();
  if (!/^[a-z]{2}$/.test(code)) throw new Error(`not a two-letter country code: ${JSON.stringify(country)}`);
  return code;
}

/** An agent's declared egress countries, normalised and de-duplicated. */
export function normalizeCountries(countries: readonly string[] | undefined): string[] {
  return [...new Set((countries ?? []).map(normalizeCountry))];
}

/** The routing token of a job: its egress country, or `any`. */
export function jobCountryToken(job: Pick<CaptureJob, 'egressCountry'>): string {
  return job.egressCountry === null ? ANY_COUNTRY : normalizeCountry(job.egressCountry);
}

/**
 * Country routing: an agent takes jobs for any of its countries and jobs that ask for none;
 * an agent without countries takes only the latter.
 */
export function agentAcceptsCountry(agentCountries: readonly string[], job: Pick<CaptureJob, 'egressCountry'>): boolean {
  const token = jobCountryToken(job);
  return token === ANY_COUNTRY || agentCountries.includes(token);
}
