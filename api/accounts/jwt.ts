import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';

/**
 * What a dashboard session token carries. `impersonatedBy` is the admin acting as the user (a token from
 * POST /admin/impersonate); `sessionVersion` is the user's session version when the token was signed: a
 * password reset raises it, and a token with an older one is refused.
 */
export interface SessionClaims {
  userId: number;
  companyId: number;
  impersonatedBy: number | null;
  sessionVersion?: number;
}

const ISSUER = 'shotfarm';
const ALGORITHM = 'HS256';
/** The default session lifetime when none is configured (SHOTFARM_JWT_TTL_SECONDS has the same default). */
const DEFAULT_TTL_SECONDS = 7 * 24 * 3600;
/** 128 random bits: no two sessions share a token. */
const JTI_BYTES = 16;

/** Signs and verifies dashboard JWTs with the configured HMAC secret. */
export class JwtService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds = DEFAULT_TTL_SECONDS,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * A token for these claims, valid for the configured lifetime or for `ttlSeconds` (impersonation). Its
   * random `jti` makes every session a token of its own: two logins within one second would otherwise get
   * the same token, and a logout (which revokes the token) would end both.
   */
  async sign(claims: SessionClaims, ttlSeconds = this.ttlSeconds): Promise<string> {
    return new SignJWT({ cid: claims.companyId, sv: claims.sessionVersion ?? 0, ...(claims.impersonatedBy === null ? {} : { impersonated_by: claims.impersonatedBy }) })
      .setProtectedHeader({ alg: ALGORITHM })
      .setSubject(String(claims.userId))
      .setJti(randomBytes(JTI_BYTES).toString('base64url'))
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /** The claims of a valid token, or null for anything tampered, expired or foreign. */
  async verify(token: string): Promise<Required<SessionClaims> | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: [ALGORITHM] });
      const userId = Number(payload.sub);
      const companyId = Number(payload.cid);
      const sessionVersion = payload.sv === undefined ? 0 : Number(payload.sv);
      const impersonatedBy = payload.impersonated_by === undefined ? null : Number(payload.impersonated_by);
      if (![userId, companyId, sessionVersion].every(Number.isSafeInteger)) return null;
      if (impersonatedBy !== null && !Number.isSafeInteger(impersonatedBy)) return null;
      return { userId, companyId, impersonatedBy, sessionVersion };
    } catch {
      return null;
    }
  }

  /** When a token this service signed expires (seconds since the epoch); read without checking it. */
  expiresAt(token: string): number {
    return Number(decodeJwt(token).exp);
  }

  /**
   * The CSRF proof of a cookie session: HMAC-SHA256 of the session token under the signing secret (with a
   * label, so it can never be mistaken for a signature of anything else). Bound to one session: a proof
   * learnt for one cookie is worth nothing with another, and nothing but this service can make one.
   */
  csrfToken(sessionToken: string): string {
    return createHmac('sha256', this.key).update(`csrf\n${sessionToken}`).digest('base64url');
  }

  /** Whether `proof` is the CSRF proof of this session token (compared in constant time). */
  csrfProofMatches(sessionToken: string, proof: string): boolean {
    const expected = Buffer.from(this.csrfToken(sessionToken));
    const given = Buffer.from(proof);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
