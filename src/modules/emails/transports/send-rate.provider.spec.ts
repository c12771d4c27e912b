import { tmpdir } from 'node:os';
import { loadConfig } from '../../../config/config';
import type { EmailTransport } from './email-transport';
import { resolveSendRate } from './send-rate.provider';
import { SesTransport } from './ses.transport';

const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: tmpdir(), APP_SECRET: 'x'.repeat(32), ...env });

function transport(rate?: number | undefined): EmailTransport & { maxSendRate?: jest.Mock } {
  const base = { kind: 'ses' as const, signsWithOwnDkim: false, send: jest.fn(), check: jest.fn(), close: jest.fn() };
  return arguments.length ? { ...base, maxSendRate: jest.fn().mockResolvedValue(rate) } : base;
}

describe('the send rate budget', () => {
  it('is SEND_RATE_PER_SECOND when set, without asking the transport', async () => {
    const ses = transport(14);
    expect(await resolveSendRate(config({ SEND_RATE_PER_SECOND: '2.5' }), ses)).toBe(2.5);
    expect(ses.maxSendRate).not.toHaveBeenCalled();
  });

  it("is otherwise the transport's own limit (the SES account's MaxSendRate)", async () => {
    expect(await resolveSendRate(config(), transport(14))).toBe(14);
    expect(await resolveSendRate(config(), transport(undefined))).toBeUndefined();
  });

  it('is unlimited for transports without a limit, and not looked up by processes that run no workers', async () => {
    expect(await resolveSendRate(config(), transport())).toBeUndefined();
    const ses = transport(14);
    expect(await resolveSendRate(config({ ROLE: 'api' }), ses)).toBeUndefined();
    expect(ses.maxSendRate).not.toHaveBeenCalled();
  });

  it('reads MaxSendRate from GetSendQuota, and is unknown when SES refuses or reports none', async () => {
    const ses = new SesTransport({ region: 'us-east-1', accessKeyId: 'k', secretAccessKey: 's' });
    const client = (ses as unknown as { client: { send: jest.Mock } }).client;
    client.send = jest.fn().mockResolvedValueOnce({ MaxSendRate: 14, Max24HourSend: 50_000 });
    expect(await ses.maxSendRate()).toBe(14);
    client.send = jest.fn().mockRejectedValueOnce(Object.assign(new Error('not authorized'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }));
    expect(await ses.maxSendRate()).toBeUndefined();
    client.send = jest.fn().mockResolvedValueOnce({ MaxSendRate: 0 });
    expect(await ses.maxSendRate()).toBeUndefined();
    await ses.close();
  });
});
