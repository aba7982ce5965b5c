/** One account email (verification, password reset). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  purpose: string;
  userId: number | null;
}

/** Sends account email; every message is kept so an admin can read it, whether or not it was delivered. */
export interface Mailer {
  /** Stores the message and starts its delivery without waiting for it; returns the outbox id. */
  send(mail: OutgoingMail): Promise<number>;
  /** Resolves when every delivery under way has ended (sent or failed). */
  idle(): Promise<void>;
}
