import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.js';
import { forbidden, notFound } from '../../core/errors.js';
import type { Caller } from '../http/state.js';

/**
 * The signing secrets of API keys (beyond-v1.md part 2): made, stored encrypted, rotated with a grace period.
 * Verifying a link's HMAC needs the secret itself, so it is kept encrypted at rest (not hashed, as the API key
 * is) with the installation's secret box: api/apps/secret-box.ts, given here by the composition (app.ts).
 */

/** What encrypts the secrets at rest: the installation's SecretBox (AES-256-GCM), typed here so accounts/ does not import apps/. */
export interface SecretSealer {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

/** `ss_` marks signing secrets in logs and secret scanners; 32 random bytes are HMAC-SHA256's own key size. */
export function generateSigningSecret(): string {
  return `ss_${randomBytes(32).toString('base64url')}`;
}

/** The answer of a rotation: the new secret (shown in this answer only) and until when the previous one still signs. */
export interface RotatedSecret {
  id: number;
  access: string;
  signing_secret: string;
  previous_secret_valid_until: string | null;
}

export class SigningSecrets {
  constructor(
    private readonly db: Db,
    private readonly sealer: SecretSealer,
    private readonly graceSeconds: number,
  ) {}

  /** A new secret and its stored (encrypted) form, for a key being created. */
  fresh(): { secret: string; stored: string } {
    const secret = generateSigningSecret();
    return { secret, stored: this.sealer.encrypt(secret) };
  }

  /** The plain secrets of stored ones; one this installation's box cannot open (another installation's key, tampered) is left out. */
  open(stored: readonly string[]): string[] {
    const out: string[] = [];
    for (const s of stored) {
      try {
        out.push(this.sealer.decrypt(s));
      } catch {
        // unreadable: it verifies nothing, and the key's owner gets a working one by rotating
      }
    }
    return out;
  }

  /**
   * A new signing secret for a live key of the caller's account; the current one keeps signing for the grace
   * period (a key that had none, made before signed links or by signup, gets its first). Another account's key
   * or a revoked one is a 404; an impersonation token cannot rotate (the admin would learn the user's secret).
   */
  async rotate(caller: Caller, id: number): Promise<RotatedSecret> {
    if (caller.impersonatedBy) throw forbidden('Signing secrets cannot be rotated with an impersonation token');
    return this.db.transaction(async (trx) => {
      // The row lock orders two rotations at once: the second keeps the first's secret as the previous one.
      const row = (await trx('api_keys').where({ id, company_id: caller.companyId }).whereNull('revoked_at').forUpdate().first('id', 'access', 'signing_secret')) as
        { id: number; access: string; signing_secret: string | null } | undefined;
      if (!row) throw notFound('API key');
      const { secret, stored } = this.fresh();
      const until = row.signing_secret === null ? null : new Date(Date.now() + this.graceSeconds * 1000);
      await trx('api_keys').where({ id }).update({ signing_secret: stored, previous_signing_secret: row.signing_secret, previous_secret_until: until });
      return { id: Number(row.id), access: row.access, signing_secret: secret, previous_secret_valid_until: until === null ? null : until.toISOString() };
    });
  }

  /** The current plain secret of a live key of the caller's account (to sign a link for the dashboard), or null when it has none yet. */
  async currentOf(caller: Caller, id: number): Promise<{ access: string; secret: string | null }> {
    const row = (await this.db('api_keys').where({ id, company_id: caller.companyId }).whereNull('revoked_at').first('access', 'signing_secret')) as
      { access: string; signing_secret: string | null } | undefined;
    if (!row) throw notFound('API key');
    const [secret] = row.signing_secret === null ? [] : this.open([row.signing_secret]);
    return { access: row.access, secret: secret ?? null };
  }
}
