import type { NatsConnection } from '@nats-io/transport-node';

/** A job message pulled from a lane's consumer, with what its ack subject says about it. */
export interface PulledMessage {
  subject: string;
  data: Uint8Array;
  /** the ack subject: acks, naks, progress and terms are published to it */
  reply: string;
  /** 1 on the first delivery */
  deliveries: number;
  streamSeq: number;
}

/** Status codes of a pull that found nothing: 404 No Messages, 408 Request Timeout. */
const NOTHING_TO_PULL = new Set([404, 408]);

/**
 * Pulls at most one message from a durable pull consumer without waiting (`no_wait`): the server answers
 * at once with a message or a 404. The client library's fetch/next wait at least a second for messages,
 * which would make an agent that scans several lanes (tiers × countries) spend seconds per empty lane;
 * the wire API does it in one round trip.
 *
 * `noMux`: JetStream delivers the message under its own subject to the request's inbox, which the
 * client's shared request multiplexer cannot route back; a dedicated inbox per pull can. If the answer
 * comes after the timeout, its inbox is gone and the message is redelivered after the ack wait, so an
 * agent never holds more jobs than it has slots.
 */
export async function pullNoWait(nc: NatsConnection, stream: string, consumer: string, timeoutMs: number): Promise<PulledMessage | null> {
  const msg = await nc.request(`$JS.API.CONSUMER.MSG.NEXT.${stream}.${consumer}`, JSON.stringify({ batch: 1, no_wait: true }), { timeout: timeoutMs, noMux: true });
  const status = msg.headers?.code ?? 0;
  if (NOTHING_TO_PULL.has(status)) return null;
  if (status !== 0 || !msg.reply) throw new Error(`pull from ${stream}/${consumer} refused: ${status} ${msg.headers?.description ?? ''}`.trim());
  return { subject: msg.subject, data: msg.data, reply: msg.reply, ...parseAckSubject(msg.reply) };
}

/**
 * Reads the delivery count and stream sequence from an ack subject, in either of JetStream's formats:
 * `$JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<ts>.<pending>` (9 tokens) or, with a domain and
 * account hash, `$JS.ACK.<domain>.<hash>.<stream>.<consumer>.<delivered>.<sseq>...` (11 or 12 tokens).
 */
export function parseAckSubject(reply: string): { deliveries: number; streamSeq: number } {
  const tokens = reply.split('.');
  const at = tokens.length === 9 ? 4 : tokens.length >= 11 ? 6 : -1;
  const deliveries = Number(tokens[at]);
  const streamSeq = Number(tokens[at + 1]);
  if (tokens[0] !== '$JS' || tokens[1] !== 'ACK' || at < 0 || !(deliveries >= 1) || !(streamSeq >= 1)) throw new Error(`not a JetStream ack subject: ${reply}`);
  return { deliveries, streamSeq };
}

/**
 * The acknowledgement protocol on a pulled message's ack subject. `ack` and `term` are sent as requests
 * so the server confirms them: a lost ack would make the job run twice.
 */
export class MessageAck {
  constructor(
    private readonly nc: NatsConnection,
    private readonly reply: string,
    private readonly timeoutMs: number,
  ) {}

  async ack(): Promise<void> {
    await this.nc.request(this.reply, '+ACK', { timeout: this.timeoutMs });
  }

  async term(): Promise<void> {
    await this.nc.request(this.reply, '+TERM', { timeout: this.timeoutMs });
  }

  /** Redeliver after `delayMs` (JetStream takes the delay in nanoseconds). */
  async nak(delayMs: number): Promise<void> {
    this.nc.publish(this.reply, `-NAK ${JSON.stringify({ delay: Math.round(delayMs) * 1_000_000 })}`);
    await this.nc.flush();
  }

  /** Resets the ack wait: the job is still being worked on. */
  working(): void {
    if (!this.nc.isClosed()) this.nc.publish(this.reply, '+WPI');
  }
}
