import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import type { JwtService } from '../accounts/jwt.js';
import { AuthService } from './auth-service.js';
import { CaptchaVerifier } from './captcha.js';
import { LimitCounters } from './limit-counters.js';
import { LoginLimiter } from './login-limiter.js';
import { SignupLimiter } from './signup-limiter.js';
import type { Mailer } from '../../core/contracts/mailer.js';

/** The auth service with the container's mailer, and its captcha check and login and signup limits from the configuration. */
export function buildAuthService(deps: { config: Config; db: Db; log: Logger; jwt: JwtService; mailer: Mailer }): AuthService {
  const { config, db, log, jwt, mailer } = deps;
  const counters = new LimitCounters(db);
  return new AuthService({
    db,
    log,
    jwt,
    config,
    mailer,
    captcha: new CaptchaVerifier(config.production, config.auth.captcha, log),
    loginLimiter: new LoginLimiter(counters, config.auth.loginMaxFailures),
    signupLimiter: new SignupLimiter(counters, config.auth.signupsPerAddressPerDay),
  });
}
