import { describe, expect, it } from 'vitest';
import { parseApiError } from '../api/errors';
import { dataPatch, fieldError, isShownAtField, parseJsonObject } from './forms';
import { loginPath, safeNext } from './auth-redirect';

describe('form helpers', () => {
  const invalid = parseApiError(422, { error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', errors: [{ field: 'password', message: 'password must be longer than or equal to 8 characters' }] } });

  it('puts a 422 item at its field and keeps it out of the form-level message', () => {
    expect(fieldError(invalid, 'password')).toMatch(/8 characters/);
    expect(fieldError(invalid, 'email')).toBeUndefined();
    expect(isShownAtField(invalid, ['email', 'password'])).toBe(true);
    expect(isShownAtField(invalid, ['email'])).toBe(false);
    expect(isShownAtField(new Error('boom'), ['email'])).toBe(false);
    expect(fieldError(new Error('boom'), 'email')).toBeUndefined();
  });

  it('parses the data editor as a JSON object only', () => {
    expect(parseJsonObject('{"plan":"pro"}')).toEqual({ value: { plan: 'pro' } });
    expect(parseJsonObject('  ')).toEqual({ value: {} });
    expect(parseJsonObject('[1]')).toEqual({ error: expect.stringContaining('JSON object') });
    expect(parseJsonObject('{plan:1}')).toEqual({ error: expect.stringContaining('Not valid JSON') });
  });

  it('patches data by the API rules: changed keys, removed keys as null, nothing else', () => {
    expect(dataPatch({ a: 1, b: { c: 2 }, gone: 'x' }, { a: 1, b: { c: 3 }, added: true })).toEqual({ b: { c: 3 }, added: true, gone: null });
    expect(dataPatch({ a: 1 }, { a: 1 })).toEqual({});
  });
});

describe('login redirects', () => {
  it('comes back only to paths inside the app', () => {
    expect(loginPath('/p/1/contacts?search=a')).toBe('/login?next=%2Fp%2F1%2Fcontacts%3Fsearch%3Da');
    expect(loginPath('/')).toBe('/login');
    expect(safeNext('/p/1/contacts')).toBe('/p/1/contacts');
    expect(safeNext('//evil.example/x')).toBe('/');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext('/\\evil.example')).toBe('/');
    expect(safeNext('/login?next=/x')).toBe('/');
    expect(safeNext(null)).toBe('/');
  });
});
