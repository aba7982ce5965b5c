import type { Subscription } from '@nats-io/transport-node';
import type { CaptureJob, Consumer, JobHandler } from '../../../core/contracts/job-queue.js';
import { InFlight } from '../in-flight.js';
import { runDelivery } from '../run-delivery.js';
import { decodeJob } from './job-codec.js';
import { MessageAck, pullNoWait, type PulledMessage } from './pull-message.js';
import type { QueueContext } from './queue-context.js';
import type { Lane } from './subjects.js';
import { WakeSignal } from './wake-signal.js';

/**
 * One agent's `consume()` on the NATS queue. Whenever it has a free slot it pulls ONE job, trying its
 * lanes tier by tier (highest first) and, within a tier, starting after the lane it served last, so its
 * browsers and countries take turns. With no job anywhere it sleeps until a job subject it serves sees a
 * publish (a plain NATS subscription, no JetStream cost) or `idlePollMs` passes (naked retries and
 * ack-wait redeliveries publish nothing, so they are found by that poll).
 */
export class NatsJobConsumer implements Consumer {
  private readonly inflight = new InFlight();
  private readonly signal = new WakeSignal();
  private readonly allLanes: Lane[];
  /** per tier: the index of the lane to try first */
  private readonly cursor: number[];
  private readonly subscriptions: Subscription[] = [];
  private stopping = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly ctx: QueueContext,
    private readonly lanesByTier: Lane[][],
    wakeSubjects: string[],
    private readonly slots: number,
    private readonly handler: JobHandler,
    private readonly onStopped: (consumer: NatsJobConsumer) => void,
  ) {
    this.allLanes = lanesByTier.flat();
    this.cursor = lanesByTier.map(() => 0);
    for (const subject of wakeSubjects) {
      this.subscriptions.push(ctx.nc.subscribe(subject, { callback: () => this.signal.kick() }));
    }
    this.loop = this.run();
  }

  inFlight(): number {
    return this.inflight.size;
  }

  /** Stops pulling, waits for the jobs in flight to settle (SIGTERM drain of an agent). */
  async drain(): Promise<void> {
    await this.stop();
    await this.inflight.idle();
  }

  /** Stops pulling without waiting for the jobs in flight (the queue is closing). */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.signal.kick();
      for (const sub of this.subscriptions) if (!this.ctx.nc.isClosed()) sub.unsubscribe();
      this.onStopped(this);
    }
    await this.loop;
  }

  private done(): boolean {
    return this.stopping || this.ctx.closing.aborted || this.ctx.nc.isClosed();
  }

  private async run(): Promise<void> {
    while (!this.done()) {
      if (this.inflight.size >= this.slots) {
        await this.signal.wait(this.ctx.idlePollMs);
        continue;
      }
      let pulled: PulledMessage | null = null;
      try {
        await this.ctx.ensureLanes(this.allLanes);
        pulled = await this.pullHighest();
      } catch (err) {
        if (this.done()) break;
        this.ctx.log.warn({ err }, 'queue: pulling jobs failed; retrying');
        this.ctx.invalidate();
      }
      if (pulled) this.start(pulled);
      else await this.signal.wait(this.ctx.idlePollMs);
    }
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
    this.inflight.track(this.process(pulled), () => this.signal.kick());
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
