import { Reflector } from '@nestjs/core';
import { IsOptional, IsString } from 'class-validator';
import type { Request } from 'express';
import { Audited, AUDITED_KEY, type AuditedCall, type AuditedSpec, bodyFieldsOf, fromParam, fromResult } from './audited.decorator';

class SettingsDto {
  @IsOptional()
  @IsString()
  name?: string;

  @IsOptional()
  @IsString()
  tracking?: string;

  @IsOptional()
  retention?: Record<string, number | null>;
}

const call = (req: Partial<Request>, result?: unknown): AuditedCall => ({ req: req as Request, result });

describe('@Audited', () => {
  it('declares the action and how to read its target on the handler', () => {
    class Controller {
      @Audited('domain.deleted', { target: { type: 'domain', id: fromParam('id') } })
      remove(): void {}
    }
    const spec = new Reflector().get<AuditedSpec>(AUDITED_KEY, Controller.prototype.remove);
    expect(spec.action).toBe('domain.deleted');
    expect(spec.target.type).toBe('domain');
    expect(spec.target.id(call({ params: { id: 'd-1' } }))).toBe('d-1');
  });

  it('reads a route parameter, or a string field of the result; anything else is undefined', () => {
    expect(fromParam('userId')(call({ params: { userId: 'u-1' } }))).toBe('u-1');
    expect(fromParam('userId')(call({ params: {} }))).toBeUndefined();
    expect(fromResult('id')(call({}, { id: 'w-1', url: 'https://x.test' }))).toBe('w-1');
    expect(fromResult('id')(call({}, { id: 42 }))).toBeUndefined();
    expect(fromResult('id')(call({}, undefined))).toBeUndefined();
    expect(fromResult('id')(call({}, null))).toBeUndefined();
  });

  it('names the declared fields a body sets, in declaration order, and nothing it does not declare', () => {
    const changes = bodyFieldsOf(SettingsDto);
    expect(changes(call({ body: { retention: { eventsDays: 30 }, name: 'Acme', unknown: 1 } }))).toEqual(['name', 'retention']);
    // A field cleared with null is a change; one left out is not.
    expect(changes(call({ body: { tracking: null } }))).toEqual(['tracking']);
    expect(changes(call({ body: {} }))).toEqual([]);
    expect(changes(call({ body: undefined }))).toEqual([]);
  });
});
