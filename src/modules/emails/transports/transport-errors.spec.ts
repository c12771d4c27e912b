import { sendLimiter } from '../worker/email-send.processor';
import { classifySesError } from './ses.transport';
import { classifySmtpError } from './smtp.transport';

describe('transport error classification', () => {
  it('treats SMTP 5xx as permanent, 4xx and network errors as temporary', () => {
    expect(classifySmtpError({ responseCode: 550, response: '550 no such user' })).toMatchObject({ permanent: true, responseCode: 550 });
    expect(classifySmtpError({ responseCode: 451, response: '451 try later' })).toMatchObject({ permanent: false, responseCode: 451 });
    expect(classifySmtpError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' })).toMatchObject({ permanent: false });
  });

  it('treats SES throttling, 5xx and network errors as temporary, other refusals as permanent', () => {
    expect(classifySesError({ name: 'Throttling', $metadata: { httpStatusCode: 400 } }).permanent).toBe(false);
    expect(classifySesError({ name: 'InternalFailure', $metadata: { httpStatusCode: 500 } }).permanent).toBe(false);
    expect(classifySesError({ name: 'TimeoutError' }).permanent).toBe(false);
    expect(classifySesError({ name: 'MessageRejected', $metadata: { httpStatusCode: 400 } }).permanent).toBe(true);
  });

  it('turns SEND_RATE_PER_SECOND into a BullMQ limiter', () => {
    expect(sendLimiter(undefined)).toBeUndefined();
    expect(sendLimiter(50)).toEqual({ max: 50, duration: 1000 });
    expect(sendLimiter(0.5)).toEqual({ max: 1, duration: 2000 });
  });
});
