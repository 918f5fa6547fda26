import pino, { Logger } from 'pino';
import pretty from 'pino-pretty';

export interface LoggerOptions {
  /** Human-readable lines instead of JSON; by default when stdout is a terminal. */
  pretty?: boolean;
}

/**
 * Logs on stdout: JSON lines, one object per line, for log collectors; on a terminal the same records as
 * readable lines.
 */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const settings = { level, base: { service: 'calendar-api' }, timestamp: pino.stdTimeFunctions.isoTime };
  if (!(options.pretty ?? process.stdout.isTTY === true)) return pino(settings);
  return pino(settings, pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss', singleLine: true, ignore: 'pid,hostname,service' }));
}

export type { Logger };

/**
 * Nest's own messages in the same log stream. What Nest logs as plain information is start-up detail (modules
 * initialised, every route mapped), so it goes to `debug`; warnings and errors keep their level.
 */
export class JsonNestLogger {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
