import type { BrowserName } from '../../../core/capture-spec.js';
import { QUEUE_TIERS, type QueueTier } from '../../../core/contracts/job-queue.js';
import { assertPrefix } from '../../nats/names.js';
import { ANY_COUNTRY } from '../country-routing.js';

/**
 * The JetStream names of one installation:
 * - stream `<prefix>_jobs` (work-queue retention) holds `<prefix>.jobs.<browser>.<tier>.<country|any>`;
 * - stream `<prefix>_results` (work-queue retention) holds `<prefix>.results`;
 * - KV bucket `<prefix>_jobstate` holds each queued job's state (queued / started / cancelled).
 */
export class QueueNames {
  readonly prefix: string;
  readonly jobsStream: string;
  readonly resultsStream: string;
  readonly resultsSubject: string;
  readonly jobStateBucket: string;
  /** the one durable consumer every `onResult` shares, so each result is applied by one api process */
  readonly resultsConsumer = 'recorder';

  constructor(prefix: string) {
    this.prefix = assertPrefix(prefix);
    this.jobsStream = `${prefix}_jobs`;
    this.resultsStream = `${prefix}_results`;
    this.resultsSubject = `${prefix}.results`;
    this.jobStateBucket = `${prefix}_jobstate`;
  }

  /** every job subject: the jobs stream's subject filter */
  get allJobs(): string {
    return `${this.prefix}.jobs.>`;
  }

  jobSubject(browser: BrowserName, tier: QueueTier, country: string): string {
    return `${this.prefix}.jobs.${browser}.${tier}.${country}`;
  }

  /** what an idle agent listens to, to wake up when a job for it is published (any tier) */
  wakeSubject(browser: BrowserName, country: string): string {
    return `${this.prefix}.jobs.${browser}.*.${country}`;
  }

  /** Lane of a job subject, or undefined for a subject that is not one. */
  parseJobSubject(subject: string): Lane | undefined {
    const tokens = subject.split('.');
    if (tokens.length !== 5 || tokens[0] !== this.prefix || tokens[1] !== 'jobs') return undefined;
    const [, , browser, tier, country] = tokens as [string, string, BrowserName, QueueTier, string];
    if (!(QUEUE_TIERS as readonly string[]).includes(tier)) return undefined;
    return lane(this, browser, tier, country);
  }
}

/**
 * A lane is one job subject and the durable pull consumer that serves it. All agents with the same
 * browser and country share the lane's consumer, so JetStream hands each job to exactly one of them.
 * Work-queue streams require consumer filters not to overlap, hence one exact subject per consumer.
 */
export interface Lane {
  browser: BrowserName;
  tier: QueueTier;
  country: string;
  subject: string;
  consumer: string;
}

export function lane(names: QueueNames, browser: BrowserName, tier: QueueTier, country: string): Lane {
  return { browser, tier, country, subject: names.jobSubject(browser, tier, country), consumer: `${browser}_${tier}_${country}` };
}

/** The lanes an agent serves, grouped by tier (highest first): its browsers × (its countries + `any`). */
export function agentLanes(names: QueueNames, browsers: readonly BrowserName[], countries: readonly string[]): Lane[][] {
  const tokens = [...countries, ANY_COUNTRY];
  return QUEUE_TIERS.map((tier) => browsers.flatMap((browser) => tokens.map((country) => lane(names, browser, tier, country))));
}
