import type { Config } from '../../core/config/config.js';
import type { Db } from '../../core/db/connect.js';
import type { Logger } from '../../core/logger.js';
import type { JwtService } from '../accounts/jwt.js';
import { AuthService } from './auth-service.js';
import { CaptchaVerifier } from './captcha.js';
import { LoginLimiter } from './login-limiter.js';
import { Mailer } from './mailer.js';

/** The auth service with its mailer, captcha check and login limiter, from the configuration. */
export function buildAuthService(deps: { config: Config; db: Db; log: Logger; jwt: JwtService }): AuthService {
  const { config, db, log, jwt } = deps;
  return new AuthService({
    db, log, jwt, config,
    mailer: new Mailer(db, log, config.mail),
    captcha: new CaptchaVerifier(config.production, config.auth.captcha, log),
    loginLimiter: new LoginLimiter(config.auth.loginMaxFailures),
  });
}
