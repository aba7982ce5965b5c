import type { AuthConfig } from '../../core/config/config.js';
import { fieldError, serviceUnavailable } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';

/** Turnstile and hCaptcha answer within a second or two; 10 s means the verifier is not answering. */
const VERIFY_TIMEOUT_MS = 10_000;

/**
 * Checks the `captcha_token` of signup, forgot-password and reset-password against the configured verify
 * endpoint (Cloudflare Turnstile or hCaptcha style: a form with secret, response and remoteip; a JSON answer
 * whose `success` is true). Only in production, as the spec says; elsewhere the token is not required.
 */
export class CaptchaVerifier {
  constructor(
    private readonly required: boolean,
    private readonly config: AuthConfig['captcha'],
    private readonly log: Logger,
  ) {}

  /** Whether requests must carry a captcha_token (reported with the other field errors). */
  get isRequired(): boolean {
    return this.required;
  }

  /** Passes, or throws 400 on `captcha_token` (missing or refused) or 503 (the verifier cannot be reached). */
  async check(token: string | undefined, remoteIp: string): Promise<void> {
    if (!this.required) return;
    if (!token) throw fieldError('captcha_token', 'is required');
    let answer: unknown;
    try {
      const res = await fetch(this.config.verifyUrl, {
        method: 'POST',
        body: new URLSearchParams({ secret: this.config.secret ?? '', response: token, remoteip: remoteIp }),
        signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
      });
      answer = await res.json();
    } catch (err) {
      this.log.error({ err, url: this.config.verifyUrl }, 'captcha verify endpoint failed');
      throw serviceUnavailable('The captcha could not be checked; try again shortly');
    }
    if ((answer as { success?: unknown } | null)?.success !== true) {
      this.log.info({ remoteIp, answer }, 'captcha refused');
      throw fieldError('captcha_token', 'was not accepted: solve the captcha again');
    }
  }
}
