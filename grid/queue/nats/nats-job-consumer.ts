import type { Subscription } from '@nats-io/transport-node';
import type { BrowserName } from '../../../core/capture-spec.js';
import { JobWithdrawn, type CaptureJob, type JobHandler } from '../../../core/contracts/job-queue.js';
import { runDelivery } from '../run-delivery.js';
import { decodeIds, decodeJob } from './job-codec.js';
import { LoopingConsumer } from './looping-consumer.js';
import { MessageAck, pullNoWait, type PulledMessage } from './pull-message.js';
import type { QueueContext } from './queue-context.js';
import { FairRotation } from './fair-rotation.js';
import type { Lane } from './subjects.js';

/**
 * One agent's `consume()` on the NATS queue. Whenever it has a free slot it pulls ONE job: from the
 * highest tier that has work, from the account whose turn it is in that tier (fair-rotation.ts), so one
 * account's batch cannot hold up another account's jobs of the same tier. With no job anywhere it sleeps
 * until a job subject it serves sees a publish (a plain NATS subscription, no JetStream cost) or
 * `idlePollMs` passes; every `idlePollMs` it also asks the stream which account queues hold jobs, since
 * delayed retries and ack-wait redeliveries publish nothing.
 */
export class NatsJobConsumer extends LoopingConsumer {
  private readonly subscriptions: Subscription[] = [];
  private readonly rotation: FairRotation;
  /** the jobs this consumer holds, by record id: a withdrawal message aborts them */
  private readonly withdrawals = new Map<number, AbortController>();
  private lastDiscovery = 0;

  constructor(
    ctx: QueueContext,
    private readonly browsers: readonly BrowserName[],
    serves: (lane: Lane) => boolean,
    wakeSubjects: string[],
    private readonly slots: number,
    private readonly handler: JobHandler,
    onStopped: (consumer: NatsJobConsumer) => void,
  ) {
    super(ctx, 'pulling jobs', () => onStopped(this));
    this.rotation = new FairRotation(ctx.names, serves);
    for (const subject of wakeSubjects) {
      this.subscriptions.push(
        ctx.nc.subscribe(subject, {
          callback: (_err, msg) => {
            if (msg) this.rotation.noteSubject(msg.subject);
            this.wake.kick();
          },
        }),
      );
    }
    this.subscriptions.push(
      ctx.nc.subscribe(ctx.names.withdrawnSubject, {
        callback: (_err, msg) => {
          if (!msg) return;
          try {
            for (const id of decodeIds(msg.data)) this.withdrawals.get(id)?.abort(new JobWithdrawn(id));
          } catch (err) {
            ctx.log.warn({ err }, 'queue: ignoring an unreadable withdrawal message');
          }
        },
      }),
    );
    this.startLoop();
  }

  protected override stopped(): void {
    for (const sub of this.subscriptions) if (!this.ctx.nc.isClosed()) sub.unsubscribe();
  }

  /** Pulls one job when a slot is free, else (or with no job anywhere) waits for a wake-up or the idle poll. */
  protected async turn(): Promise<void> {
    if (Date.now() - this.lastDiscovery >= this.ctx.idlePollMs) {
      const { jsm } = await this.ctx.handles();
      await this.rotation.discover(jsm, this.browsers);
      this.lastDiscovery = Date.now();
    }
    if (this.inflight.size >= this.slots) {
      await this.wake.wait(this.ctx.idlePollMs);
      return;
    }
    const pulled = await this.pullNext();
    if (pulled) this.start(pulled);
    else await this.wake.wait(Math.max(1, this.lastDiscovery + this.ctx.idlePollMs - Date.now()));
  }

  /** The next job: highest tier first, within a tier the account whose turn it is; null when none has one. */
  private async pullNext(): Promise<PulledMessage | null> {
    for (const queue of this.rotation.turnOrder()) {
      // Checked before every pull: after drain() at most the pull already under way can bring a job.
      if (this.done()) return null;
      await this.ctx.ensureConsumers([queue]);
      const pulled = await pullNoWait(this.ctx.nc, this.ctx.names.jobsStream, queue.consumer, this.ctx.requestTimeoutMs);
      if (pulled) {
        this.rotation.served(queue);
        return pulled;
      }
      this.rotation.empty(queue);
      this.ctx.forgetConsumer(queue);
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
    // Listening before the claim: a withdrawal between claim and handler start still reaches the handler.
    const withdrawal = new AbortController();
    if (id !== 0) this.withdrawals.set(id, withdrawal);
    try {
      await this.claimAndRun(job, pulled, ack, withdrawal.signal);
    } finally {
      if (this.withdrawals.get(id) === withdrawal) this.withdrawals.delete(id);
    }
  }

  private async claimAndRun(job: CaptureJob, pulled: PulledMessage, ack: MessageAck, withdrawn: AbortSignal): Promise<void> {
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
      await this.ctx
        .handles()
        .then(({ jobState }) => jobState.forget(id))
        .catch((err: unknown) => {
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
      { handler: this.handler, tuning: this.ctx.tuning, publishResult: (r) => this.ctx.publishResult(r), signal: AbortSignal.any([this.ctx.closing, withdrawn]), log: this.ctx.log },
    );
  }
}
