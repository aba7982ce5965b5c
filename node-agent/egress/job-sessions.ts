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
 * The captures in flight, keyed by their proxy credentials. The username is the record id, for logs; the
 * random password is what identifies the session, so two attempts of one record never share a log.
 */
export class JobSessions {
  private readonly byPassword = new Map<string, JobSession>();

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

  /** The session a Proxy-Authorization header names, or null when it names none (or is absent). */
  fromAuthorization(header: string | undefined): JobSession | null {
    const match = /^basic\s+(\S+)$/i.exec(header?.trim() ?? '');
    if (!match?.[1]) return null;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const session = colon < 0 ? undefined : this.byPassword.get(decoded.slice(colon + 1));
    return session && session.username === decoded.slice(0, colon) ? session : null;
  }
}
