import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of, throwError } from 'rxjs';
import { AuditInterceptor } from './audit.interceptor';
import type { AuditLogService } from './audit-log.service';
import { Audited, fromParam } from './audited.decorator';

class Controller {
  @Audited('campaign.cancelled', { target: { type: 'campaign', id: fromParam('id') } })
  audited(): void {}
  plain(): void {}
}

function fixture(handler: keyof Controller) {
  const recordCall = jest.fn(async () => undefined);
  const interceptor = new AuditInterceptor(new Reflector(), { recordCall } as unknown as AuditLogService);
  const req = { params: { id: 'c-1' } };
  const context = { getType: () => 'http', getHandler: () => Controller.prototype[handler], switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
  return { recordCall, req, run: (next: CallHandler) => lastValueFrom(interceptor.intercept(context, next), { defaultValue: undefined }) };
}

describe('AuditInterceptor', () => {
  it("records an audited handler's call once it succeeded, before its answer goes on, and passes the answer through", async () => {
    const { recordCall, req, run } = fixture('audited');
    await expect(run({ handle: () => of({ status: 'CANCELLED' }) })).resolves.toEqual({ status: 'CANCELLED' });
    expect(recordCall).toHaveBeenCalledWith(expect.objectContaining({ action: 'campaign.cancelled' }), { req, result: { status: 'CANCELLED' } });
  });

  it('records nothing when the handler fails, nor for a handler that declares nothing', async () => {
    const failed = fixture('audited');
    await expect(failed.run({ handle: () => throwError(() => new Error('409')) })).rejects.toThrow('409');
    expect(failed.recordCall).not.toHaveBeenCalled();
    const plain = fixture('plain');
    await plain.run({ handle: () => of(undefined) });
    expect(plain.recordCall).not.toHaveBeenCalled();
  });
});
