import 'reflect-metadata';
import { container, type DependencyContainer, type InjectionToken } from 'tsyringe';

/**
 * Injection tokens shared by every composition root. Services are registered with factories (no
 * decorators), so constructors stay plain and tests can build them by hand.
 */
export const TOKENS = {
  Config: Symbol('Config'),
  Db: Symbol('Db'),
  Logger: Symbol('Logger'),
  Jwt: Symbol('JwtService'),
  RateLimiter: Symbol('RateLimiter'),
  ScreenshotStore: Symbol('ScreenshotStore'),
  ScreenshotService: Symbol('ScreenshotService'),
  ResultRecorder: Symbol('ResultRecorder'),
} as const;

/** A fresh container per process (or per test), so nothing leaks between two services in one process. */
export function newContainer(): DependencyContainer {
  return container.createChildContainer();
}

export function resolve<T>(c: DependencyContainer, token: InjectionToken<T>): T {
  return c.resolve<T>(token);
}
