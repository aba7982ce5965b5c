import type { Subscription } from '@nats-io/transport-node';
import type { CaptureJob, JobHandler } from '../../../core/contracts/job-queue.js';
import { runDelivery } from '../run-delivery.js';
import { decodeJob } from './job-codec.js';
import { LoopingConsumer } from './looping-consumer.js';
import { MessageAck, pullNoWait, type PulledMessage } from './pull-message.js';
import type { QueueContext } from './queue-context.js';
import type { Lane } from './subjects.js';

/**
 * One agent's `consume()` on the NATS queue. Whenever it has a free slot it pulls ONE job, trying its
 * lanes tier by tier (highest first) and, within a tier, starting after the lane it served last, so its
 * browsers and countries take turns. With no job anywhere it sleeps until a job subject it serves sees a
 * publish (a plain NATS subscription, no JetStream cost) or `idlePollMs` passes (naked retries and
 * ack-wait redeliveries publish nothing, so they are found by that poll).
 */
export class NatsJobConsumer extends LoopingConsumer {
  private readonly allLanes: Lane[];
  /** per tier: the index of the lane to try first */
  private readonly cursor: number[];
  private readonly subscriptions: Subscription[] = [];

  constructor(
    ctx: QueueContext,
    private readonly lanesByTier: Lane[][],
    wakeSubjects: string[],
    private readonly slots: number,
    private readonly handler: JobHandler,
    onStopped: (consumer: NatsJobConsumer) => void,
  ) {
    super(ctx, 'pulling jobs', () => onStopped(this));
    this.allLanes = lanesByTier.flat();
    this.cursor = lanesByTier.map(() => 0);
    for (const subject of wakeSubjects) {
      this.subscriptions.push(ctx.nc.subscribe(subject, { callback: () => this.wake.kick() }));
    }
    this.startLoop();
  }

  protected override stopped(): void {
    for (const sub of this.subscriptions) if (!this.ctx.nc.isClosed()) sub.unsubscribe();
  }

  /** Pulls one job when a slot is free, else (or with no job anywhere) waits for a wake-up or the idle poll. */
  protected async turn(): Promise<void> {
    if (this.inflight.size >= this.slots) {
      await this.wake.wait(this.ctx.idlePollMs);
      return;
    }
    await this.ctx.ensureLanes(this.allLanes);
    const pulled = await this.pullHighest();
    if (pulled) this.start(pulled);
    else await this.wake.wait(this.ctx.idlePollMs);
  }

  /** The next job from the highest tier that has one, or null. */
  private async pullHighest(): Promise<PulledMessage | null> {
    for (const [tier, lanes] of this.lanesByTier.entries()) {
      const first = this.cursor[tier] ?? 0;
      for (let i = 0; i < lanes.length; i += 1) {
        // Checked before every pull: after drain() at most the pull already under way can bring a job.
        if (this.done()) return null;
        const index = (first + i) % lanes.length;
        const lane = lanes[index] as Lane;
        const pulled = await pullNoWait(this.ctx.nc, this.ctx.names.jobsStream, lane.consumer, this.ctx.requestTimeoutMs);
        if (pulled) {
          this.cursor[tier] = (index + 1) % lanes.length;
          return pulled;
        }
      }
    }
    return null;
  }

  private start(pulled: PulledMessage): void {
    this.inflight.track(this.process(pulled), () => this.wake.kick());
  }

  private async process(pulled: PulledMessage): Promise<void> {
    const ack = new MessageAck(this.ctx.nc, pulled.reply, this.ctx.requestTimeoutMs);
    let job: CaptureJob;
    try {
      job = decodeJob(pulled.data);
    } catch (err) {
      // Nothing can run it and no record id can be named: drop it rather than redeliver it forever.
      this.ctx.log.error({ err, subject: pulled.subject, seq: pulled.streamSeq }, 'queue: dropping an unreadable job message');
      await ack.term().catch(() => undefined);
      return;
    }
    const id = job.spec.id;
    try {
      const { jobState } = await this.ctx.handles();
      if (id !== 0 && (await jobState.claim(id)) === 'cancelled') {
        await ack.term();
        return;
      }
    } catch (err) {
      // Without its state the job cannot be started safely; leave it to be redelivered after the ack wait.
      this.ctx.log.warn({ err, id }, 'queue: could not claim a job; it will be redelivered');
      return;
    }
    const settled = async (settle: () => Promise<void>): Promise<void> => {
      await settle();
      if (id === 0) return;
      // The job has ended: its state is no longer needed (and the same id may be queued again).
      await this.ctx.handles().then(({ jobState }) => jobState.forget(id)).catch((err: unknown) => {
        this.ctx.log.warn({ err, id }, 'queue: could not forget a settled job state; it expires with the bucket TTL');
      });
    };
    await runDelivery(
      {
        job,
        attempt: pulled.deliveries,
        ack: () => settled(() => ack.ack()),
        terminate: () => settled(() => ack.term()),
        retry: (delayMs) => ack.nak(delayMs),
        working: () => ack.working(),
      },
      { handler: this.handler, tuning: this.ctx.tuning, publishResult: (r) => this.ctx.publishResult(r), signal: this.ctx.closing, log: this.ctx.log },
    );
  }
}
