import type { JetStreamManager } from '@nats-io/jetstream';
import type { BrowserName } from '../../../core/capture-spec.js';
import { QUEUE_TIERS } from '../../../core/contracts/job-queue.js';
import type { AccountQueue, Lane, QueueNames } from './subjects.js';

/**
 * Fair sharing between accounts within a tier, for one agent's consumer on JetStream.
 *
 * JetStream serves one consumer first in, first out, so a lane with one consumer would let one account's
 * batch of thousands delay every other account's jobs in that tier. Instead each account has its own
 * subject and consumer in each lane (subjects.ts), and an agent takes turns between the account queues that
 * have work: per tier, a rotation in which an account that was served moves to the back, as the in-process
 * queue's FairTier does. Every agent rotates on its own, so with two accounts waiting each gets about half of
 * every agent's slots, whatever their backlogs.
 *
 * An agent learns which account queues have work from two sources:
 * - the publishes themselves: it subscribes to its job subjects (plain NATS, no JetStream cost), so a new
 *   account's first job joins the rotation at once;
 * - the stream's per-subject counts, asked at most every `idlePollMs` (one request per browser): jobs
 *   published before the agent started, and those that come back after a delayed retry or an ack wait,
 *   which publish nothing.
 * A queue whose pull answers "nothing" leaves the rotation until one of those sources names it again.
 */
export class FairRotation {
  /** per tier (highest first): the account queues with work, in turn order (a Map keeps insertion order) */
  private readonly tiers = QUEUE_TIERS.map(() => new Map<string, AccountQueue>());

  constructor(
    private readonly names: QueueNames,
    private readonly serves: (lane: Lane) => boolean,
  ) {}

  /** A job subject was published to, or the stream holds messages on it: its queue has (or may have) work. */
  noteSubject(subject: string): void {
    const queue = this.names.parseJobSubject(subject);
    if (!queue || !this.serves(queue)) return;
    const tier = this.tiers[QUEUE_TIERS.indexOf(queue.tier)];
    // Already waiting its turn: it keeps its place.
    if (tier && !tier.has(queue.subject)) tier.set(queue.subject, queue);
  }

  /** The account queues of each tier in turn order, highest tier first (a snapshot: safe to change while iterating). */
  *turnOrder(): Iterable<AccountQueue> {
    for (const tier of this.tiers) yield* [...tier.values()];
  }

  /** The queue gave a job: to the back of its tier's rotation. */
  served(queue: AccountQueue): void {
    const tier = this.tiers[QUEUE_TIERS.indexOf(queue.tier)];
    if (!tier?.delete(queue.subject)) return;
    tier.set(queue.subject, queue);
  }

  /** The queue had nothing to give: out of the rotation until its subject is named again. */
  empty(queue: AccountQueue): void {
    this.tiers[QUEUE_TIERS.indexOf(queue.tier)]?.delete(queue.subject);
  }

  /**
   * Asks the stream which job subjects of these browsers hold messages and adds their queues. The counts
   * include jobs handed out and not yet acknowledged; a pull then finds nothing and the queue leaves again.
   */
  async discover(jsm: JetStreamManager, browsers: readonly BrowserName[]): Promise<void> {
    for (const browser of browsers) {
      const info = await jsm.streams.info(this.names.jobsStream, { subjects_filter: this.names.browserJobs(browser) });
      for (const [subject, stored] of Object.entries(info.state.subjects ?? {})) if (stored > 0) this.noteSubject(subject);
    }
  }
}
