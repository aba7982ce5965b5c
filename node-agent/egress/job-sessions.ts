import { randomBytes } from 'node:crypto';
import type { PrivateKind } from '../../core/net/ip-ranges.js';
import type { UnreachableRequest } from './unreachable-cause.js';

/** One request the guard refused: the host the browser asked for, and where it resolved. */
export interface BlockedRequest {
  host: string;
  port: number;
  address: string;
  kind: PrivateKind;
}

/** A capture as the guard knows it: its credentials, its upstream proxy and what it blocked. */
export interface JobSession {
  username: string;
  password: string;
  /** the country proxy this capture's allowed traffic is tunnelled through, or null for direct */
  upstream: string | null;
  blocked: BlockedRequest[];
  /** allowed requests the guard could not deliver (no such host, refused, reset, timed out) */
  unreachable: UnreachableRequest[];
}

/** 16 random bytes (128 bits): a password no other local process can guess to use the guard. */
const PASSWORD_BYTES = 16;

/**
 * Credentials of a browser context made before its capture (drivers/playwright/prepared-contexts.ts). Pending,
 * they name no session: the guard refuses them as it refuses unknown ones (407), so a prepared context reaches
 * nothing. Bound, they stand for the capture's own session (its record id, upstream and logs) while that is open.
 */
export interface PreparedCredentials {
  username: string;
  password: string;
}

/** The username of prepared credentials: no record id yet; the password is what tells them apart. */
const PREPARED_USERNAME = 'prepared';

/**
 * The captures in flight, keyed by their proxy credentials. The username is the record id, for logs; the
 * random password is what identifies the session, so two attempts of one record never share a log.
 */
export class JobSessions {
  private readonly byPassword = new Map<string, JobSession>();
  /** prepared credentials by password: null while pending, else the session they were bound to */
  private readonly prepared = new Map<string, JobSession | null>();

  open(jobId: number, upstream: string | null): JobSession {
    const session: JobSession = { username: String(jobId), password: randomBytes(PASSWORD_BYTES).toString('hex'), upstream, blocked: [], unreachable: [] };
    this.byPassword.set(session.password, session);
    return session;
  }

  close(session: JobSession): void {
    this.byPassword.delete(session.password);
  }

  /** True until the session is closed. */
  isOpen(session: JobSession): boolean {
    return this.byPassword.get(session.password) === session;
  }

  /** New pending credentials: they name no session until bind(). */
  openPrepared(): PreparedCredentials {
    const credentials = { username: PREPARED_USERNAME, password: randomBytes(PASSWORD_BYTES).toString('hex') };
    this.prepared.set(credentials.password, null);
    return credentials;
  }

  /**
   * Makes pending credentials stand for an open session, once: false when they are not pending (bound
   * already, or closed) or the session is not open, and then they stay as they were.
   */
  bind(credentials: PreparedCredentials, session: JobSession): boolean {
    if (this.prepared.get(credentials.password) !== null || !this.isOpen(session)) return false;
    this.prepared.set(credentials.password, session);
    return true;
  }

  closePrepared(credentials: PreparedCredentials): void {
    this.prepared.delete(credentials.password);
  }

  /** The open session a proxy URL's credentials name (a pass's `proxy`), or null. */
  fromProxyUrl(proxy: string): JobSession | null {
    const url = URL.canParse(proxy) ? new URL(proxy) : null;
    if (!url?.username) return null;
    return this.named(decodeURIComponent(url.username), decodeURIComponent(url.password));
  }

  /** The session a Proxy-Authorization header names, or null when it names none (or is absent). */
  fromAuthorization(header: string | undefined): JobSession | null {
    const match = /^basic\s+(\S+)$/i.exec(header?.trim() ?? '');
    if (!match?.[1]) return null;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? null : this.named(decoded.slice(0, colon), decoded.slice(colon + 1));
  }

  /** A job's own credentials, or bound prepared ones whose session is still open; pending ones name nothing. */
  private named(username: string, password: string): JobSession | null {
    const own = this.byPassword.get(password);
    if (own) return own.username === username ? own : null;
    const bound = username === PREPARED_USERNAME ? this.prepared.get(password) : undefined;
    return bound && this.isOpen(bound) ? bound : null;
  }
}
