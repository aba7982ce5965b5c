import { BROWSERS, type BrowserName } from '../../../core/capture-spec.js';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { QueueNames } from './subjects.js';

/**
 * Jobs waiting per browser. A work-queue stream holds every job not yet acknowledged, per subject; the jobs
 * a lane's consumer has handed out and not had acknowledged (running, or waiting for a retry) are its
 * ack-pending count. Waiting = stored − ack-pending, per lane subject. Lanes nobody serves have no
 * consumer yet: all their messages are waiting. Two requests, whatever the backlog.
 */
export async function queueDepth(jsm: JetStreamManager, names: QueueNames): Promise<Record<BrowserName, number>> {
  const depth = Object.fromEntries(BROWSERS.map((b) => [b, 0])) as Record<BrowserName, number>;
  const info = await jsm.streams.info(names.jobsStream, { subjects_filter: names.allJobs });
  const taken = new Map<string, number>();
  for await (const consumer of jsm.consumers.list(names.jobsStream)) {
    if (consumer.config.filter_subject) taken.set(consumer.config.filter_subject, consumer.num_ack_pending);
  }
  for (const [subject, stored] of Object.entries(info.state.subjects ?? {})) {
    const lane = names.parseJobSubject(subject);
    if (!lane || !(lane.browser in depth)) continue;
    depth[lane.browser] += Math.max(0, stored - (taken.get(subject) ?? 0));
  }
  return depth;
}
