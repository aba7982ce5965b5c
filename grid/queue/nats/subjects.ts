import type { BrowserName } from '../../../core/capture-spec.js';
import { QUEUE_TIERS, type QueueTier } from '../../../core/contracts/job-queue.js';
import { assertPrefix } from '../../nats/names.js';
import { ANY_COUNTRY } from '../country-routing.js';

/**
 * The JetStream names of one installation:
 * - stream `<prefix>_jobs` (work-queue retention) holds `<prefix>.jobs.<browser>.<tier>.<country|any>.<company>`
 *   (one subject per account and lane, so agents can take turns between accounts: see fair-rotation.ts);
 * - stream `<prefix>_results` (work-queue retention) holds `<prefix>.results`;
 * - KV bucket `<prefix>_jobstate` holds each queued job's state (queued / started / cancelled);
 * - subject `<prefix>.withdrawn` (no stream) carries the ids of running jobs withdrawn, to the agents;
 * - subject `<prefix>.ended` (no stream) carries the ids of records that ended, to every api replica's waiters.
 */
export class QueueNames {
  readonly prefix: string;
  readonly jobsStream: string;
  readonly resultsStream: string;
  readonly resultsSubject: string;
  readonly jobStateBucket: string;
  /** the one durable consumer every `onResult` shares, so each result is applied by one api process */
  readonly resultsConsumer = 'recorder';
  /**
   * where the api says which running jobs are withdrawn (their records deleted): plain NATS, no stream,
   * every agent listens and aborts those it runs
   */
  readonly withdrawnSubject: string;
  /** where the replica that recorded an ending tells every replica (plain NATS): their info?wait and render waiters wake */
  readonly endedSubject: string;

  constructor(prefix: string) {
    this.prefix = assertPrefix(prefix);
    this.jobsStream = `${prefix}_jobs`;
    this.resultsStream = `${prefix}_results`;
    this.resultsSubject = `${prefix}.results`;
    this.jobStateBucket = `${prefix}_jobstate`;
    this.withdrawnSubject = `${prefix}.withdrawn`;
    this.endedSubject = `${prefix}.ended`;
  }

  /** every job subject: the jobs stream's subject filter */
  get allJobs(): string {
    return `${this.prefix}.jobs.>`;
  }

  /** every job subject of one browser: what an agent asks the stream about when it looks for work */
  browserJobs(browser: BrowserName): string {
    return `${this.prefix}.jobs.${browser}.>`;
  }

  jobSubject(browser: BrowserName, tier: QueueTier, country: string, companyId: number): string {
    return `${this.prefix}.jobs.${browser}.${tier}.${country}.${companyId}`;
  }

  /** what an agent listens to, to learn at once that an account has a job for it (any tier, any account) */
  wakeSubject(browser: BrowserName, country: string): string {
    return `${this.prefix}.jobs.${browser}.*.${country}.*`;
  }

  /**
   * The account queue of a job subject, or undefined for a subject that is not one. A subject without
   * the account token was published by a version before fair sharing: it is served as an account queue of
   * its own (its consumer is the lane consumer that version created), so an upgrade strands no job.
   */
  parseJobSubject(subject: string): AccountQueue | undefined {
    const tokens = subject.split('.');
    if ((tokens.length !== 5 && tokens.length !== 6) || tokens[0] !== this.prefix || tokens[1] !== 'jobs') return undefined;
    const [, , browser, tier, country, company] = tokens as [string, string, BrowserName, QueueTier, string, string | undefined];
    if (!(QUEUE_TIERS as readonly string[]).includes(tier)) return undefined;
    if (company !== undefined && !/^\d+$/.test(company)) return undefined;
    return {
      browser,
      tier,
      country,
      companyId: company === undefined ? null : Number(company),
      subject,
      consumer: company === undefined ? `${browser}_${tier}_${country}` : `${browser}_${tier}_${country}_${company}`,
    };
  }
}

/** A lane: the jobs of one browser, tier and country token (`any` or an egress country). */
export interface Lane {
  browser: BrowserName;
  tier: QueueTier;
  country: string;
}

/**
 * One account's jobs in one lane: one job subject and the durable pull consumer that serves it. All agents
 * serving the lane share that consumer, so JetStream hands each job to exactly one of them. Work-queue
 * streams require consumer filters not to overlap, hence one exact subject per consumer. `companyId` is
 * null for a subject of the version before fair sharing (no account token).
 */
export interface AccountQueue extends Lane {
  companyId: number | null;
  subject: string;
  consumer: string;
}

/** Which lanes an agent serves: its browsers × (its countries + `any`), every tier. */
export function servesLane(browsers: readonly BrowserName[], countries: readonly string[]): (lane: Lane) => boolean {
  const tokens = new Set([...countries, ANY_COUNTRY]);
  return (lane) => browsers.includes(lane.browser) && tokens.has(lane.country);
}
