import { SetMetadata, type Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { Request } from 'express';
import type { AuditAction, AuditTargetType } from './audit-actions';

/** A handler call that succeeded: the request (principal, params, body, address) and what the handler returned. */
export interface AuditedCall {
  req: Request;
  result: unknown;
}

/** Reads one value of an audited call (a target id, a project id); undefined when the call does not carry it. */
export type AuditValue = (call: AuditedCall) => string | undefined;

export interface AuditedOptions {
  target: { type: AuditTargetType; id: AuditValue };
  /** The names of what changed; an empty list means the call changed nothing, and nothing is recorded. */
  changes?: (call: AuditedCall) => string[];
  /** The project acted on; by default the request's (its secret key, or a session's `X-Project-Id`). */
  project?: AuditValue;
}

export interface AuditedSpec extends AuditedOptions {
  action: AuditAction;
}

export const AUDITED_KEY = 'mailroom:audited';

/**
 * Records `action` in the project's audit log once the handler has succeeded (the audit module's
 * interceptor writes it; docs/audit-log.md): who (the session's user or the secret key), from
 * which address, on what target.
 *
 *   @Audited('domain.created', { target: { type: 'domain', id: fromResult('id') } })
 */
export const Audited = (action: AuditAction, options: AuditedOptions) => SetMetadata(AUDITED_KEY, { action, ...options } satisfies AuditedSpec);

/** A route parameter, as the client sent it (the handler's pipe has accepted it, or the call failed). */
export const fromParam =
  (name: string): AuditValue =>
  ({ req }) => {
    const value: unknown = req.params?.[name];
    return typeof value === 'string' ? value : undefined;
  };

/** A string field of the handler's result (the id of what it created). */
export const fromResult =
  (key: string): AuditValue =>
  ({ result }) => {
    const value = result !== null && typeof result === 'object' ? (result as Record<string, unknown>)[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  };

/**
 * The fields of a PATCH body that the call set: the properties `dto` declares (every one, so a
 * setting added to it later is named too) that the body carries, in declaration order.
 */
export function bodyFieldsOf(dto: Type<unknown>): (call: AuditedCall) => string[] {
  let declared: string[] | undefined;
  return ({ req }) => {
    declared ??= [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))];
    const body: unknown = req.body;
    if (body === null || typeof body !== 'object') return [];
    return declared.filter((name) => (body as Record<string, unknown>)[name] !== undefined);
  };
}
