import nodemailer from 'nodemailer';
import type { MailConfig } from '../../core/config/config.js';
import type { Mailer, OutgoingMail } from '../../core/contracts/mailer.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';

/**
 * Deadlines of one SMTP delivery: 10 s to connect and to be greeted is generous for a mail relay, and 30 s
 * of silence in the middle of a message means the relay is gone. A delivery never holds a request.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, dnsTimeout: 10_000 };
/** Error texts kept in the outbox are cut here: enough to tell what went wrong, bounded in size. */
const MAX_ERROR_CHARS = 1000;

type Transport = ReturnType<typeof nodemailer.createTransport>;

/**
 * Sends account email. Every message is kept in the `email_outbox` table with its status, so an admin can
 * read it (GET /admin/outbox). With SMTP_URL it is delivered by nodemailer in the background (`pending`,
 * then `sent` or `failed`); without, it is written to the log and stays `logged`.
 */
export class OutboxMailer implements Mailer {
  private readonly transport: Transport | null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly config: MailConfig,
  ) {
    this.transport = config.smtpUrl ? nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS }) : null;
  }

  /**
   * Stores the message and starts its delivery; returns the outbox id. It does not wait for the SMTP
   * server: a slow relay must not slow the request, nor show by its timing whether an address has an account.
   */
  async send(mail: OutgoingMail): Promise<number> {
    const [row] = await this.db('email_outbox')
      .insert({ user_id: mail.userId, to_address: mail.to, subject: mail.subject, body_text: mail.text, purpose: mail.purpose, status: this.transport ? 'pending' : 'logged' })
      .returning('id');
    const id = Number(row.id);
    if (!this.transport) {
      this.log.info({ outbox_id: id, to: mail.to, subject: mail.subject, purpose: mail.purpose, text: mail.text }, 'account email (SMTP_URL not set: logged and kept in the outbox)');
      return id;
    }
    const delivery = this.deliver(this.transport, id, mail).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
    return id;
  }

  /** Resolves when every delivery under way has ended (sent or failed). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(transport: Transport, id: number, mail: OutgoingMail): Promise<void> {
    try {
      await transport.sendMail({ from: this.config.from, to: mail.to, subject: mail.subject, text: mail.text });
      await this.db('email_outbox').where({ id }).update({ status: 'sent', sent_at: new Date() });
      this.log.info({ outbox_id: id, to: mail.to, purpose: mail.purpose }, 'account email sent');
    } catch (err) {
      this.log.warn({ err, outbox_id: id, to: mail.to, purpose: mail.purpose }, 'account email not delivered');
      const error = (err as Error)?.message ?? String(err);
      // The database may be gone as well (shutdown): the log line above is then the only record.
      await this.db('email_outbox')
        .where({ id })
        .update({ status: 'failed', error: error.slice(0, MAX_ERROR_CHARS) })
        .catch(() => undefined);
    }
  }
}
