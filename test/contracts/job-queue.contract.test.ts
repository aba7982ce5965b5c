import { expect } from 'chai';
import type { NatsConnection } from '@nats-io/transport-node';
import { JobWithdrawn, type CaptureJob, type Consumer, type JobControl, type JobOutcome, type JobQueue } from '../../core/contracts/job-queue.js';
import { MemoryJobQueue } from '../../grid/queue/memory-job-queue.js';
import { NatsJobQueue } from '../../grid/queue/nats-job-queue.js';
import { finishedResult, gate, ResultLog, sleep, testJob, waitFor } from './support/jobs.js';
import { NatsSandbox } from './support/nats-sandbox.js';

/** The knobs a test turns; short delays keep the suite fast. */
interface TestTuning {
  maxDeliveries: number;
  retryBaseMs: number;
  /** NATS only: the in-process queue has no ack deadline */
  ackWaitMs: number;
}

/**
 * Base tuning. 3 deliveries are enough to see retry, backoff and give-up; 100 ms retry base keeps a
 * three-attempt job under a second; 1.5 s ack wait makes a lost job come back quickly, yet a test process
 * stalled by a loaded machine (other suites run browsers) must stall over a second before the working()
 * calls, sent every quarter ack wait, miss the deadline.
 */
const BASE: TestTuning = { maxDeliveries: 3, retryBaseMs: 100, ackWaitMs: 1_500 };

interface QueueSetup {
  queue: JobQueue;
  /** another handle on the same queue, as another process holds it (NATS: its own connection) */
  peer(): Promise<JobQueue>;
  /** kills the process holding `queue` abruptly; absent when consumer and queue cannot die apart */
  crash?: (queue: JobQueue) => Promise<void>;
}

interface QueueFactory {
  name: string;
  create(tuning: TestTuning): Promise<QueueSetup>;
  /** after each test: closes what the test opened and deletes its state */
  cleanup(): Promise<void>;
  /** after the suite */
  teardown(): Promise<void>;
}

/** What a scripted handler saw on one delivery. */
interface Start {
  id: number;
  tier: string;
  companyId: number;
  attempt: number;
  at: number;
}

/**
 * A consumer whose handler runs `behave` and records every start, the number running at once and the
 * peak. By default it publishes a finished result and returns done, as an agent does.
 */
function scriptedConsumer(
  queue: JobQueue,
  slots: number,
  behave: (job: CaptureJob, ctl: JobControl) => Promise<JobOutcome | void> = async () => undefined,
  opts: { browsers?: ('chrome' | 'firefox' | 'brave')[]; countries?: string[] } = {},
): { consumer: Consumer; starts: Start[]; running: () => number; peak: () => number } {
  const starts: Start[] = [];
  let running = 0;
  let peak = 0;
  const consumer = queue.consume(
    opts.browsers ?? ['chrome'],
    slots,
    async (job, ctl) => {
      running += 1;
      peak = Math.max(peak, running);
      starts.push({ id: job.spec.id, tier: job.tier, companyId: job.companyId, attempt: ctl.attempt, at: Date.now() });
      try {
        const outcome = await behave(job, ctl);
        if (outcome) return outcome;
        await queue.publishResult(finishedResult(job));
        return { kind: 'done' };
      } finally {
        running -= 1;
      }
    },
    opts.countries ? { countries: opts.countries } : {},
  );
  return { consumer, starts, running: () => running, peak: () => peak };
}

export function jobQueueContract(factory: QueueFactory): void {
  describe(`JobQueue contract: ${factory.name}`, function () {
    this.timeout(30_000);
    afterEach(() => factory.cleanup());
    after(() => factory.teardown());

    it('carries a job to a consumer and its result to onResult', async () => {
      const { queue } = await factory.create(BASE);
      expect(await queue.reachable()).to.equal(true);
      const results = new ResultLog(queue);
      const job = testJob();
      await queue.enqueue(job);
      const seen: CaptureJob[] = [];
      scriptedConsumer(queue, 1, async (j) => {
        seen.push(j);
      });
      await waitFor('the result', () => results.of(job.spec.id).length === 1);
      expect(seen).to.deep.equal([job]);
      expect(results.of(job.spec.id)[0]).to.deep.equal(finishedResult(job));
    });

    it('ignores a job whose record id is already queued', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      const job = testJob();
      await queue.enqueue(job);
      await queue.enqueue({ ...job, tier: 'high' });
      await Promise.all([queue.enqueue(job), queue.enqueue(job)]);
      expect((await queue.depth()).chrome).to.equal(1);
      const { starts } = scriptedConsumer(queue, 2);
      await waitFor('the result', () => results.of(job.spec.id).length === 1);
      await sleep(400);
      expect(starts.map((s) => s.id)).to.deep.equal([job.spec.id]);
      expect(results.results).to.have.length(1);
    });

    it('never has more jobs in flight than the consumer has slots', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      const jobs = Array.from({ length: 8 }, () => testJob());
      for (const job of jobs) await queue.enqueue(job);
      let peakInFlight = 0;
      const scripted = scriptedConsumer(queue, 3, async () => {
        peakInFlight = Math.max(peakInFlight, scripted.consumer.inFlight());
        await sleep(150);
      });
      await waitFor('8 results', () => results.results.length === 8);
      expect(scripted.peak(), 'handlers running at once').to.equal(3);
      expect(peakInFlight, 'inFlight()').to.be.at.most(3);
      expect(new Set(scripted.starts.map((s) => s.id))).to.deep.equal(new Set(jobs.map((j) => j.spec.id)));
    });

    it('starts higher tiers first when there is a backlog', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      for (const tier of ['bulk', 'normal', 'high'] as const) for (let i = 0; i < 3; i += 1) await queue.enqueue(testJob({ tier }));
      const { starts } = scriptedConsumer(queue, 1);
      await waitFor('9 results', () => results.results.length === 9);
      expect(starts.map((s) => s.tier)).to.deep.equal(['high', 'high', 'high', 'normal', 'normal', 'normal', 'bulk', 'bulk', 'bulk']);
    });

    it('does not let a bulk batch starve a single request', async () => {
      const { queue } = await factory.create(BASE);
      for (let i = 0; i < 40; i += 1) await queue.enqueue(testJob({ tier: 'bulk', companyId: 7 }));
      const { starts } = scriptedConsumer(queue, 1, async () => {
        await sleep(30);
      });
      await waitFor('a few bulk jobs to start', () => starts.length >= 5);
      const single = testJob({ tier: 'normal', companyId: 8 });
      await queue.enqueue(single);
      const startedBefore = starts.length;
      await waitFor('the single request to start', () => starts.some((s) => s.id === single.spec.id));
      const position = starts.findIndex((s) => s.id === single.spec.id);
      // Once enqueued it is the next job started, bar one bulk job whose pull was already under way.
      expect(position - startedBefore).to.be.at.most(1);
      expect(starts.length).to.be.lessThan(40);
    });

    it('interleaves companies within a tier', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      for (let i = 0; i < 6; i += 1) await queue.enqueue(testJob({ companyId: 1 }));
      for (let i = 0; i < 2; i += 1) await queue.enqueue(testJob({ companyId: 2 }));
      const { starts } = scriptedConsumer(queue, 1);
      await waitFor('8 results', () => results.results.length === 8);
      const order = starts.map((s) => s.companyId);
      // Companies take turns while both have jobs; which goes first among jobs queued before the consumer
      // started is the queue's choice (NATS finds them in the stream's per-subject counts, in no set order).
      expect(order.slice(4), 'company 1 alone once company 2 is done').to.deep.equal([1, 1, 1, 1]);
      expect(
        [
          [1, 2, 1, 2],
          [2, 1, 2, 1],
        ],
        `taking turns: ${order.join(',')}`,
      ).to.deep.include(order.slice(0, 4));
      if (factory.name === 'MemoryJobQueue') expect(order.slice(0, 4), 'the in-process queue starts with the company queued first').to.deep.equal([1, 2, 1, 2]);
    });

    it('routes jobs by egress country', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      const fr = testJob({ egressCountry: 'fr' });
      const de = testJob({ egressCountry: 'DE' });
      const anywhere = testJob({ egressCountry: null });
      for (const job of [fr, de, anywhere]) await queue.enqueue(job);
      const french = scriptedConsumer(queue, 2, undefined, { countries: ['FR', 'it'] });
      await waitFor('fr and the any-country job', () => results.results.length === 2);
      expect(french.starts.map((s) => s.id).sort()).to.deep.equal([fr.spec.id, anywhere.spec.id].sort());
      expect((await queue.depth()).chrome, 'the de job still waits').to.equal(1);

      const anywhere2 = testJob({ egressCountry: null });
      const plain = scriptedConsumer(queue, 2);
      await queue.enqueue(anywhere2);
      await waitFor('the second any-country job', () => results.results.length === 3);
      await sleep(300);
      expect(plain.starts.map((s) => s.id).concat(french.starts.slice(2).map((s) => s.id))).to.include(anywhere2.spec.id);
      expect(plain.starts.map((s) => s.id)).to.not.include(de.spec.id);
      expect((await queue.depth()).chrome, 'the de job still waits').to.equal(1);

      const german = scriptedConsumer(queue, 1, undefined, { countries: ['de'] });
      await waitFor('the de job', () => results.of(de.spec.id).length === 1);
      expect(german.starts.map((s) => s.id)).to.deep.equal([de.spec.id]);
    });

    it('redelivers a retried job with a growing delay, then finishes it once', async () => {
      const tuning = { ...BASE, retryBaseMs: 200 };
      const { queue } = await factory.create(tuning);
      const results = new ResultLog(queue);
      const job = testJob();
      await queue.enqueue(job);
      const { starts } = scriptedConsumer(queue, 1, async (_job, ctl) => (ctl.attempt < 3 ? { kind: 'retry', reason: 'site timed out' } : undefined));
      await waitFor('the result', () => results.of(job.spec.id).length === 1);
      await sleep(300);
      expect(starts.map((s) => s.attempt)).to.deep.equal([1, 2, 3]);
      const [first, second, third] = starts as [Start, Start, Start];
      // Timers may fire a few ms early on a busy machine: allow 10 ms.
      expect(second.at - first.at, 'first delay').to.be.at.least(tuning.retryBaseMs - 10);
      expect(third.at - second.at, 'second delay (doubled)').to.be.at.least(2 * tuning.retryBaseMs - 10);
      expect(results.results).to.have.length(1);
      expect(results.results[0]?.status).to.equal('finished');
    });

    it('publishes exactly one error result after maxDeliveries', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      const job = testJob();
      await queue.enqueue(job);
      const { starts } = scriptedConsumer(queue, 1, async () => ({ kind: 'retry', reason: 'browser crashed' }));
      await waitFor('the error result', () => results.of(job.spec.id).length === 1);
      await sleep(600);
      expect(starts.map((s) => s.attempt)).to.deep.equal([1, 2, 3]);
      expect(results.results).to.have.length(1);
      const [result] = results.results;
      expect(result?.status).to.equal('error');
      expect(result?.error).to.contain('browser crashed').and.to.contain('3 attempts');
    });

    it('publishes one error result for a job that fails for good, without retrying it', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      const job = testJob({ egressCountry: null });
      await queue.enqueue(job);
      const { starts } = scriptedConsumer(queue, 1, async () => ({ kind: 'fail', reason: 'invalid URL' }));
      await waitFor('the error result', () => results.of(job.spec.id).length === 1);
      await sleep(400);
      expect(starts).to.have.length(1);
      expect(results.results.map((r) => [r.status, r.error, r.routing])).to.deep.equal([['error', 'invalid URL', 'any']]);
    });

    it('redelivers the job of a consumer that died mid-job to another, and finishes it once', async function () {
      const setup = await factory.create(BASE);
      if (!setup.crash) this.skip(); // the in-process queue dies with its only consumer: nothing to redeliver to
      const results = new ResultLog(setup.queue);
      const doomed = await setup.peer();
      const job = testJob();
      await setup.queue.enqueue(job);
      const never = gate();
      const dying = scriptedConsumer(doomed, 1, async () => {
        await never.promise;
      });
      await waitFor('the doomed consumer to start the job', () => dying.starts.length === 1);
      await setup.crash(doomed);
      const survivor = scriptedConsumer(setup.queue, 1);
      await waitFor('the result from the survivor', () => results.of(job.spec.id).length === 1, 10_000);
      never.open();
      await sleep(500);
      expect(survivor.starts.map((s) => [s.id, s.attempt])).to.deep.equal([[job.spec.id, 2]]);
      expect(results.results).to.have.length(1);
    });

    it('keeps a long job from being redelivered while working() is called', async () => {
      const { queue, peer } = await factory.create(BASE);
      const results = new ResultLog(queue);
      const job = testJob();
      await queue.enqueue(job);
      const slow = scriptedConsumer(queue, 1, async (_job, ctl) => {
        // 2.5 ack waits, reporting progress 4 times per ack wait.
        for (let elapsed = 0; elapsed < 2.5 * BASE.ackWaitMs; elapsed += BASE.ackWaitMs / 4) {
          ctl.working();
          await sleep(BASE.ackWaitMs / 4);
        }
      });
      await waitFor('the slow job to start', () => slow.starts.length === 1);
      // An idle consumer in another process, ready to take the job should it be redelivered.
      const idle = scriptedConsumer(await peer(), 2);
      await waitFor('the result', () => results.of(job.spec.id).length === 1);
      await sleep(300);
      expect(slow.starts).to.have.length(1);
      expect(idle.starts).to.have.length(0);
      expect(results.results).to.have.length(1);
    });

    it('drain() stops taking jobs and waits for those in flight', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      for (let i = 0; i < 3; i += 1) await queue.enqueue(testJob());
      const finished: number[] = [];
      const scripted = scriptedConsumer(queue, 2, async (job) => {
        await sleep(400);
        finished.push(job.spec.id);
      });
      await waitFor('two jobs in flight', () => scripted.running() === 2);
      await scripted.consumer.drain();
      expect(finished, 'both in-flight jobs ended before drain resolved').to.have.length(2);
      expect(scripted.consumer.inFlight()).to.equal(0);
      await sleep(400);
      expect(scripted.starts).to.have.length(2);
      expect((await queue.depth()).chrome, 'the third job still waits').to.equal(1);
      await waitFor('two results', () => results.results.length === 2);
    });

    it('cancel() drops queued jobs that have not started, and only those', async () => {
      const { queue } = await factory.create(BASE);
      const results = new ResultLog(queue);
      const jobs = Array.from({ length: 5 }, () => testJob());
      for (const job of jobs) await queue.enqueue(job);
      const [a, b, c, d, e] = jobs.map((j) => j.spec.id) as [number, number, number, number, number];
      expect(await queue.cancel([b, d, 999_999_999])).to.equal(2);
      expect(await queue.cancel([b])).to.equal(0);
      expect((await queue.depth()).chrome).to.equal(3);

      const hold = gate();
      const { starts } = scriptedConsumer(queue, 3, async () => {
        await hold.promise;
      });
      await waitFor('three jobs started', () => starts.length === 3);
      expect(await queue.cancel([a, c, e]), 'started jobs are not cancelled').to.equal(0);
      hold.open();
      await waitFor('three results', () => results.results.length === 3);
      await sleep(400);
      expect(starts.map((s) => s.id).sort()).to.deep.equal([a, c, e].sort());
      expect(results.results).to.have.length(3);
    });

    it('withdraw() aborts a running job where it runs and drops a queued one: neither runs again nor ends with a result', async () => {
      const { queue, peer } = await factory.create(BASE);
      const results = new ResultLog(queue);
      const [running, queued, later] = [testJob(), testJob(), testJob()];
      const reasons: unknown[] = [];
      // The consumer in another process (NATS: its own connection), as an agent is: it stops only when told.
      const { starts } = scriptedConsumer(await peer(), 1, async (job, ctl) => {
        if (job.spec.id !== running.spec.id) return undefined;
        await new Promise((resolve) => ctl.signal.addEventListener('abort', resolve, { once: true }));
        reasons.push(ctl.signal.reason);
        // What an aborted capture answers: a failure the queue would retry, were the job not withdrawn.
        return { kind: 'retry', reason: 'capture aborted' };
      });
      await queue.enqueue(running);
      await waitFor('the running job to start', () => starts.length === 1);
      await queue.enqueue(queued);
      await queue.withdraw([running.spec.id, queued.spec.id, 999_999_999]);
      await waitFor('the running job to be aborted', () => reasons.length === 1);
      expect(reasons[0]).to.be.instanceOf(JobWithdrawn).and.to.include({ id: running.spec.id });
      // The slot is free again and the queue goes on with other jobs.
      await queue.enqueue(later);
      await waitFor('the later job', () => results.of(later.spec.id).length === 1);
      await sleep(BASE.ackWaitMs + 500);
      expect(starts.map((s) => s.id)).to.deep.equal([running.spec.id, later.spec.id]);
      expect(results.results.map((r) => r.id)).to.deep.equal([later.spec.id]);
      expect((await queue.depth()).chrome).to.equal(0);
    });

    it('depth() counts waiting jobs per browser', async () => {
      const { queue } = await factory.create(BASE);
      expect(await queue.depth()).to.deep.equal({ chrome: 0, firefox: 0, brave: 0 });
      await queue.enqueue(testJob({ browser: 'chrome', tier: 'high' }));
      await queue.enqueue(testJob({ browser: 'chrome', tier: 'bulk', egressCountry: 'fr' }));
      await queue.enqueue(testJob({ browser: 'firefox' }));
      expect(await queue.depth()).to.deep.equal({ chrome: 2, firefox: 1, brave: 0 });
      const hold = gate();
      const { starts } = scriptedConsumer(queue, 1, async () => {
        await hold.promise;
      });
      await waitFor('one job started', () => starts.length === 1);
      expect(await queue.depth()).to.deep.equal({ chrome: 1, firefox: 1, brave: 0 });
      hold.open();
    });

    it('oldestWaiting() gives per lane the age of the oldest job nobody has taken', async () => {
      const { queue } = await factory.create(BASE);
      expect(await queue.oldestWaiting()).to.deep.equal([]);
      const first = testJob({ browser: 'chrome' });
      await queue.enqueue(first);
      await sleep(600);
      const second = testJob({ browser: 'chrome' });
      await queue.enqueue(second);
      await queue.enqueue(testJob({ browser: 'firefox', tier: 'bulk', egressCountry: 'fr' }));
      const lanes = async (): Promise<Record<string, number>> => Object.fromEntries((await queue.oldestWaiting()).map((l) => [`${l.browser}.${l.tier}`, l.seconds]));
      const waited = (job: CaptureJob): number => (Date.now() - job.enqueuedAt) / 1000;
      const before = await lanes();
      expect(Object.keys(before).sort()).to.deep.equal(['chrome.normal', 'firefox.bulk']);
      expect(before['chrome.normal']).to.be.within(0.5, waited(first) + 0.1);
      expect(before['firefox.bulk']).to.be.below(0.5);

      // Taken, the first job no longer waits: the lane's age is the second one's.
      const hold = gate();
      const { starts } = scriptedConsumer(queue, 1, async () => {
        await hold.promise;
      });
      await waitFor('the first job started', () => starts.length === 1);
      expect(starts[0]!.id).to.equal(first.spec.id);
      const during = await lanes();
      expect(during['chrome.normal'])
        .to.be.below(waited(first) - 0.4)
        .and.to.be.at.most(waited(second) + 0.1);
      hold.open();
      await waitFor('the second job started', () => starts.length === 2);
      expect(Object.keys(await lanes())).to.deep.equal(['firefox.bulk']);
    });

    it('hands a result over again when the result handler fails', async () => {
      const { queue } = await factory.create(BASE);
      const job = testJob();
      const calls: number[] = [];
      queue.onResult(async (result) => {
        calls.push(result.id);
        if (calls.length === 1) throw new Error('database unavailable');
      });
      await queue.publishResult(finishedResult(job));
      await waitFor('the second hand-over', () => calls.length === 2);
      await sleep(400);
      expect(calls).to.deep.equal([job.spec.id, job.spec.id]);
    });

    it('announces ended records to every process listening, its own too, and to none after it stops', async () => {
      const { queue, peer } = await factory.create(BASE);
      const other = await peer();
      const here: number[][] = [];
      const there: number[][] = [];
      const stopHere = queue.onEnded((ids) => here.push(ids));
      const stopThere = other.onEnded((ids) => there.push(ids));
      // A plain subscription is in place once the server has it: a round trip of the announcing side settles that.
      await other.reachable();
      await queue.reachable();
      queue.announceEnded([41, 42]);
      await waitFor('both processes to hear the ending', () => here.length === 1 && there.length === 1);
      expect({ here, there }).to.deep.equal({ here: [[41, 42]], there: [[41, 42]] });
      stopThere();
      other.announceEnded([43]);
      await waitFor('the announcing process to hear its own', () => here.length === 2);
      await sleep(200);
      expect({ here, there }).to.deep.equal({ here: [[41, 42], [43]], there: [[41, 42]] });
      stopHere();
    });

    it('is unreachable once closed', async () => {
      const { queue } = await factory.create(BASE);
      expect(await queue.reachable()).to.equal(true);
      await queue.close();
      expect(await queue.reachable()).to.equal(false);
    });
  });
}

function memoryFactory(): QueueFactory {
  const open: JobQueue[] = [];
  return {
    name: 'MemoryJobQueue',
    async create(tuning) {
      const queue = new MemoryJobQueue({ maxDeliveries: tuning.maxDeliveries, retryBaseMs: tuning.retryBaseMs, retryMaxMs: 10 * tuning.retryBaseMs });
      open.push(queue);
      // One process holds the in-process queue: another handle on it is the same object.
      return { queue, peer: async () => queue };
    },
    async cleanup() {
      await Promise.all(open.splice(0).map((q) => q.close()));
    },
    async teardown() {},
  };
}

function natsFactory(): QueueFactory {
  const sandbox = new NatsSandbox();
  const open: JobQueue[] = [];
  return {
    name: 'NatsJobQueue',
    async create(tuning) {
      const prefix = sandbox.prefix();
      const connections = new Map<JobQueue, NatsConnection>();
      const make = async (): Promise<JobQueue> => {
        const connection = await sandbox.connect();
        const queue = new NatsJobQueue({
          connection,
          prefix,
          maxDeliveries: tuning.maxDeliveries,
          retryBaseMs: tuning.retryBaseMs,
          retryMaxMs: 10 * tuning.retryBaseMs,
          ackWaitMs: tuning.ackWaitMs,
          // 100 ms: a delayed retry is found within a tenth of a second, so delays measure the backoff.
          idlePollMs: 100,
          requestTimeoutMs: 2_000,
        });
        connections.set(queue, connection);
        open.push(queue);
        return queue;
      };
      const queue = await make();
      return {
        queue,
        peer: make,
        crash: async (victim) => {
          const nc = connections.get(victim);
          if (!nc) throw new Error('not a queue of this setup');
          await sandbox.kill(nc);
        },
      };
    },
    async cleanup() {
      await Promise.all(open.splice(0).map((q) => q.close()));
      await sandbox.closeConnections();
      await sandbox.deleteStreams();
    },
    async teardown() {
      await sandbox.deleteStreams();
    },
  };
}

jobQueueContract(memoryFactory());
jobQueueContract(natsFactory());
