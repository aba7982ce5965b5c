import { jwtVerify, SignJWT } from 'jose';

/** What a dashboard session token carries. */
export interface SessionClaims { userId: number; companyId: number; impersonatedBy: number | null }

const ISSUER = 'shotfarm';
const ALGORITHM = 'HS256';

/** Signs and verifies dashboard JWTs with the configured HMAC secret. */
export class JwtService {
  private readonly key: Uint8Array;

  constructor(secret: string, private readonly ttlSeconds = 7 * 24 * 3600) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: SessionClaims): Promise<string> {
    return new SignJWT({ cid: claims.companyId, imp: claims.impersonatedBy ?? undefined })
      .setProtectedHeader({ alg: ALGORITHM })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(this.key);
  }

  /** The claims of a valid token, or null for anything tampered, expired or foreign. */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: [ALGORITHM] });
      const userId = Number(payload.sub);
      const companyId = Number(payload.cid);
      if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(companyId)) return null;
      return { userId, companyId, impersonatedBy: typeof payload.imp === 'number' ? payload.imp : null };
    } catch {
      return null;
    }
  }
}
