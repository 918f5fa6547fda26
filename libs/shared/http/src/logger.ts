import pino, { Logger } from 'pino';

/** Structured JSON logs on stdout, one object per line. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'calendar-api' }, timestamp: pino.stdTimeFunctions.isoTime });
}

export type { Logger };

/** Nest's own messages (start-up, shutdown) in the same JSON log stream. */
export class JsonNestLogger {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
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
