import { describe, expect, it } from 'vitest';
import { ApiError, parseApiError } from './errors';

describe('parseApiError', () => {
  it('reads the envelope: status, code, message, field, suggestion and request id', () => {
    const err = parseApiError(422, {
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        statusCode: 422,
        requestId: 'req-1',
        errors: [
          { field: 'email', message: 'email must be a valid email address', code: 'invalid_string' },
          { field: 'data.plan', message: 'too long', code: 'too_big' },
        ],
        suggestion: 'Fix the fields',
      },
    });
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', message: 'Request validation failed', field: 'email', requestId: 'req-1', suggestion: 'Fix the fields' });
    expect(err.messageFor('email')).toBe('email must be a valid email address');
    expect(err.messageFor('data')).toBe('data.plan: too long');
    expect(err.messageFor('name')).toBeUndefined();
  });

  it('names the field of the short {error} body for missing input', () => {
    const err = parseApiError(400, { error: 'from is required' });
    expect(err).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: 'from is required', field: 'from' });
    expect(err.messageFor('from')).toBe('from is required');
    expect(parseApiError(400, { error: 'Something else went wrong' }).field).toBeUndefined();
  });

  it('takes a 403/404/409 message as is, with the field only when details name one', () => {
    const conflict = parseApiError(409, { success: false, error: { code: 'CONFLICT', message: 'Email already used by another contact', details: { field: 'email' } } });
    expect(conflict.field).toBe('email');
    expect(conflict.messageFor('email')).toBe('Email already used by another contact');
    const forbidden = parseApiError(403, { success: false, error: { code: 'DOMAIN_NOT_VERIFIED', message: 'The sender domain x.test is not verified', details: { domain: 'x.test' } } });
    expect(forbidden).toMatchObject({ status: 403, code: 'DOMAIN_NOT_VERIFIED', field: undefined, details: { domain: 'x.test' } });
  });

  it('falls back to words for the status when the body is not the envelope', () => {
    expect(parseApiError(502, '<html><body>Bad gateway</body></html>').message).toBe('An upstream service failed');
    expect(parseApiError(503, 'The dashboard is not built').message).toBe('The dashboard is not built');
    expect(parseApiError(418, undefined)).toMatchObject({ code: 'HTTP_418', message: 'Request failed (418)' });
    expect(parseApiError(500, { success: false, error: {} }, 'hdr-id')).toMatchObject({ code: 'HTTP_500', message: 'The server failed to answer', requestId: 'hdr-id' });
  });
});
