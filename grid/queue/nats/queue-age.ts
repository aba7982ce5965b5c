import type { JetStreamManager, MsgRequest } from '@nats-io/jetstream';
import type { LaneAge } from '../../../core/contracts/job-queue.js';
import type { QueueNames } from './subjects.js';

/**
 * Per lane (browser × tier; a lane's countries together), how long its oldest waiting job has waited.
 * A lane's consumer has handed out every message up to its `delivered.stream_seq`; the first message of
 * the lane's subject after it is the oldest one nobody has taken, and its stored time is when it was
 * queued. A subject with no consumer yet: its first message. One request per lane holding messages,
 * plus the two of queueDepth's kind (stream subjects, consumers).
 */
export async function oldestWaiting(jsm: JetStreamManager, names: QueueNames, now = Date.now()): Promise<LaneAge[]> {
  const info = await jsm.streams.info(names.jobsStream, { subjects_filter: names.allJobs });
  const delivered = new Map<string, { seq: number; ackPending: number }>();
  for await (const consumer of jsm.consumers.list(names.jobsStream)) {
    if (consumer.config.filter_subject) delivered.set(consumer.config.filter_subject, { seq: consumer.delivered.stream_seq, ackPending: consumer.num_ack_pending });
  }
  const ages = new Map<string, LaneAge>();
  await Promise.all(
    Object.entries(info.state.subjects ?? {}).map(async ([subject, stored]) => {
      const lane = names.parseJobSubject(subject);
      const taken = delivered.get(subject);
      if (!lane || stored - (taken?.ackPending ?? 0) <= 0) return;
      // next_by_subj is the server's "first message of this subject at or after seq" (STREAM.MSG.GET);
      // the client's type lists only the seq and last_by_subj forms.
      const query = { seq: (taken?.seq ?? 0) + 1, next_by_subj: subject } as unknown as MsgRequest;
      const first = await jsm.streams.getMessage(names.jobsStream, query);
      if (!first) return;
      const seconds = Math.max(0, (now - first.time.getTime()) / 1000);
      const key = `${lane.browser}.${lane.tier}`;
      if ((ages.get(key)?.seconds ?? -1) < seconds) ages.set(key, { browser: lane.browser, tier: lane.tier, seconds });
    }),
  );
  return [...ages.values()];
}
