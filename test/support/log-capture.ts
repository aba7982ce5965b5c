import { pino } from 'pino';
import type { Logger } from '../../core/logger.js';

/** A logger at info level whose JSON lines are kept in memory, for suites that assert what was logged. */
export function captureLog(): { logger: Logger; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}
