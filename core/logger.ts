import { pino, type Logger } from 'pino';

export type { Logger };

/** The process logger: JSON lines on stdout, at the configured level. */
export function createLogger(level: string, name = 'shotfarm'): Logger {
  return pino({ name, level });
}
