import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';

/**
 * Where a queued job stands, kept in a KV bucket keyed by record id. It makes cancel exact ("drops queued
 * jobs that have not started") across processes: the api's cancel and an agent's start both move the state
 * out of `queued` with a compare-and-set on the entry's revision, so exactly one of them wins.
 * `seq` is the job's stream sequence, so cancel can also delete the message and depth drops at once.
 */
interface JobState {
  state: 'queued' | 'started' | 'cancelled';
  seq?: number;
}

export type ClaimVerdict = 'run' | 'cancelled';

/**
 * A compare-and-set loses only to another writer of the same job (the enqueuer recording the sequence,
 * a cancel, another agent's claim), and each of those writes once: a few rounds always settle it.
 */
const MAX_CAS_ROUNDS = 5;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function isRevisionConflict(err: unknown): boolean {
  return err instanceof JetStreamApiError && (err.code === JetStreamApiCodes.StreamWrongLastSequence || err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);
}

export class JobStateStore {
  constructor(private readonly kv: KV) {}

  /**
   * Marks a job queued before it is published. Returns the entry's revision, or null when the id is
   * already queued, running or cancelled: the enqueue is then a duplicate.
   */
  async reserve(id: number): Promise<number | null> {
    try {
      return await this.kv.create(key(id), encode({ state: 'queued' }));
    } catch (err) {
      if (isRevisionConflict(err)) return null;
      throw err;
    }
  }

  /** Adds the stream sequence once published; loses quietly to an agent or a cancel that came first. */
  async recordSeq(id: number, revision: number, seq: number): Promise<void> {
    try {
      await this.kv.update(key(id), encode({ state: 'queued', seq }), revision);
    } catch (err) {
      if (!isRevisionConflict(err)) throw err;
    }
  }

  /** Forgets a job: it ended, or its publish failed (so a retried enqueue is not taken for a duplicate). */
  async forget(id: number): Promise<void> {
    await this.kv.delete(key(id));
  }

  /**
   * Called by an agent before it starts a job: `queued` becomes `started` (a redelivery finds `started`
   * and runs again); `cancelled` means drop it. A job with no state (expired with the bucket's TTL, or
   * forgotten after it ended and then redelivered because its ack was lost) runs: losing it would be worse.
   */
  async claim(id: number): Promise<ClaimVerdict> {
    for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
      const entry = await this.kv.get(key(id));
      if (!entry || entry.operation !== 'PUT') return 'run';
      const current = decode(entry.value);
      if (current.state === 'cancelled') return 'cancelled';
      if (current.state === 'started') return 'run';
      try {
        await this.kv.update(key(id), encode({ ...current, state: 'started' }), entry.revision);
        return 'run';
      } catch (err) {
        if (!isRevisionConflict(err)) throw err;
      }
    }
    throw new Error(`job ${id}: its state kept changing while it was being claimed`);
  }

  /**
   * Withdraws a job whatever its state (its record was deleted): `queued` or `started` becomes `cancelled`,
   * so a later delivery of it (a retry, an ack-wait redelivery) is dropped at claim. Returns the state it
   * was in and its stream sequence, or null when the queue holds no state for it (it ended, or never was).
   */
  async withdraw(id: number): Promise<{ was: JobState['state']; seq?: number } | null> {
    for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
      const entry = await this.kv.get(key(id));
      if (!entry || entry.operation !== 'PUT') return null;
      const current = decode(entry.value);
      if (current.state === 'cancelled') return { was: 'cancelled', seq: current.seq };
      try {
        await this.kv.update(key(id), encode({ ...current, state: 'cancelled' }), entry.revision);
        return { was: current.state, seq: current.seq };
      } catch (err) {
        if (!isRevisionConflict(err)) throw err;
      }
    }
    throw new Error(`job ${id}: its state kept changing while it was being withdrawn`);
  }

  /**
   * Cancels a job that is queued and not started. Returns whether it was, and its stream sequence
   * when known (the enqueuer may not have recorded it yet; the agent that pulls it then drops it).
   */
  async cancel(id: number): Promise<{ cancelled: boolean; seq?: number }> {
    for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
      const entry = await this.kv.get(key(id));
      if (!entry || entry.operation !== 'PUT') return { cancelled: false };
      const current = decode(entry.value);
      if (current.state !== 'queued') return { cancelled: false };
      try {
        await this.kv.update(key(id), encode({ ...current, state: 'cancelled' }), entry.revision);
        return { cancelled: true, seq: current.seq };
      } catch (err) {
        if (!isRevisionConflict(err)) throw err;
      }
    }
    throw new Error(`job ${id}: its state kept changing while it was being cancelled`);
  }
}

const key = (id: number): string => String(id);
const encode = (state: JobState): Uint8Array => encoder.encode(JSON.stringify(state));
const decode = (value: Uint8Array): JobState => JSON.parse(decoder.decode(value)) as JobState;
