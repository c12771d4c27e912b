import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/** Longest text kept from any one field of a logged error (SQL statements, parameter lists, stacks). */
export const MAX_LOGGED_TEXT = 2_048;

const clip = (text: string): string => (text.length > MAX_LOGGED_TEXT ? `${text.slice(0, MAX_LOGGED_TEXT)}… (${text.length} chars)` : text);

/**
 * Errors are logged by their type, message, code and stack, each clipped: a failed statement
 * with thousands of parameters once logged 1.7 MB per request. Parameter lists are reduced to
 * their count; the statement text is clipped.
 */
export function serializeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error) && (err === null || typeof err !== 'object')) return { message: clip(String(err)) };
  const e = err as Error & { code?: unknown; query?: unknown; parameters?: unknown; driverError?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { type: e.constructor?.name ?? 'Error', message: clip(String(e.message)) };
  if (e.code !== undefined) out.code = e.code;
  if (typeof e.query === 'string') out.query = clip(e.query);
  if (Array.isArray(e.parameters)) out.parameters = `${e.parameters.length} parameters`;
  const driverCode = (e.driverError as { code?: unknown } | undefined)?.code;
  if (driverCode !== undefined) out.driverCode = driverCode;
  if (typeof e.stack === 'string') out.stack = clip(e.stack);
  if (e.cause !== undefined && e.cause !== err) out.cause = serializeError(e.cause);
  return out;
}

/** `LOG_LEVEL` values (config.ts validates against this list); anything else falls back to info until config is loaded. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const initialLevel = (): LogLevel => {
  const fromEnv = process.env.LOG_LEVEL as LogLevel | undefined;
  return fromEnv && LOG_LEVELS.includes(fromEnv) ? fromEnv : 'info';
};

const create = (level: string): Logger =>
  pino({ level, base: { service: 'mailroom', pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: serializeError, error: serializeError } });

let root: Logger = create(initialLevel());

/** Called once at boot with the validated level; everything logs JSON lines through this root. */
export function configureLogger(level: string): Logger {
  root = create(level);
  return root;
}

export function logger(component?: string): Logger {
  return component ? root.child({ component }) : root;
}

/** Nest's start-up chatter (one line per module, controller and route) is debug, not info. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Nest's own messages go through pino too. */
export class PinoNestLogger implements LoggerService {
  log(message: unknown, context?: string): void {
    if (context && STARTUP_CONTEXTS.has(context)) root.debug({ context }, String(message));
    else root.info({ context }, String(message));
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
