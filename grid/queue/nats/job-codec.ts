import { BROWSERS } from '../../../core/capture-spec.js';
import { QUEUE_TIERS, type CaptureJob, type CaptureResult } from '../../../core/contracts/job-queue.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encodeJson = (value: CaptureJob | CaptureResult | number[]): Uint8Array => encoder.encode(JSON.stringify(value));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A job off the wire. Only the fields the queue routes and settles by are checked: the spec itself was
 * validated by core when the request came in, and the agent's driver reads it as a whole. A message that
 * fails this check was not written by shotfarm (or by an incompatible version) and cannot be run.
 */
export function decodeJob(data: Uint8Array): CaptureJob {
  const value: unknown = JSON.parse(decoder.decode(data));
  if (!isRecord(value) || !isRecord(value.spec)) throw new Error('job message is not a CaptureJob');
  const { spec, tier, companyId, egressCountry } = value;
  if (typeof spec.id !== 'number' || !(BROWSERS as readonly unknown[]).includes(spec.browser)) throw new Error('job message has no valid spec.id / spec.browser');
  if (!(QUEUE_TIERS as readonly unknown[]).includes(tier) || typeof companyId !== 'number') throw new Error('job message has no valid tier / companyId');
  if (egressCountry !== null && typeof egressCountry !== 'string') throw new Error('job message has an invalid egressCountry');
  return value as unknown as CaptureJob;
}

/** A result off the wire; the recorder validates what it applies, the queue only needs the id. */
export function decodeResult(data: Uint8Array): CaptureResult {
  const value: unknown = JSON.parse(decoder.decode(data));
  if (!isRecord(value) || typeof value.id !== 'number' || (value.status !== 'finished' && value.status !== 'error')) {
    throw new Error('result message is not a CaptureResult');
  }
  return value as unknown as CaptureResult;
}

/** The record ids of a withdrawal message (subjects.ts `withdrawnSubject`); anything else is no id. */
export function decodeIds(data: Uint8Array): number[] {
  const value: unknown = JSON.parse(decoder.decode(data));
  return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id) && id > 0) : [];
}
