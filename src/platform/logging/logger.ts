import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

let root: Logger = pino({ level: process.env.LOG_LEVEL ?? 'info', base: { service: 'mailroom', pid: process.pid } });

/** Called once at boot with the validated level; everything logs JSON lines through this root. */
export function configureLogger(level: string): Logger {
  root = pino({ level, base: { service: 'mailroom', pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
  return root;
}

export function logger(component?: string): Logger {
  return component ? root.child({ component }) : root;
}

/** Nest's own messages go through pino too. */
export class PinoNestLogger implements LoggerService {
  log(message: unknown, context?: string): void {
    root.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    root.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    root.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    root.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    root.trace({ context }, String(message));
  }
}
