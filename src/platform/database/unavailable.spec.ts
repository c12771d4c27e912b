import { QueryFailedError } from 'typeorm';
import { isServiceUnavailable } from './unavailable';

describe('isServiceUnavailable', () => {
  const connectionError = (props: Record<string, unknown>) => Object.assign(new Error(String(props.message ?? 'x')), props);

  it.each([
    ['a refused connection', connectionError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' })],
    ['a reset connection', connectionError({ code: 'ECONNRESET' })],
    ['pg losing its connection', new Error('Connection terminated unexpectedly')],
    ['pg-pool timing out on connect', new Error('timeout exceeded when trying to connect')],
    ['PostgreSQL shutting down', connectionError({ code: '57P01', message: 'terminating connection due to administrator command' })],
    ['PostgreSQL starting up', connectionError({ code: '57P03', message: 'the database system is starting up' })],
    ['a connection exception (class 08)', connectionError({ code: '08006', message: 'connection failure' })],
    ['ioredis with its connection closed', new Error('Connection is closed.')],
    ['ioredis out of retries', Object.assign(new Error('Reached the max retries per request limit (which is 2).'), { name: 'MaxRetriesPerRequestError' })],
    ['a dual-stack connect', new AggregateError([connectionError({ code: 'ECONNREFUSED' }), connectionError({ code: 'ECONNREFUSED' })])],
    ['a TypeORM QueryFailedError around one', new QueryFailedError('SELECT 1', [], connectionError({ code: 'ECONNRESET' }))],
  ])('recognizes %s', (_name, error) => {
    expect(isServiceUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', connectionError({ code: '23505', message: 'duplicate key value' })],
    ['a syntax error', connectionError({ code: '42601', message: 'syntax error' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
  ])('does not take %s for an outage', (_name, error) => {
    expect(isServiceUnavailable(error)).toBe(false);
  });
});
