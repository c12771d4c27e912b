import { AppError } from '../app-error';

export const rateLimitExceeded = (headers: Record<string, string>, message = 'Rate limit exceeded') =>
  new AppError(429, 'RATE_LIMIT_EXCEEDED', message, {
    headers,
    suggestion: 'Wait for the number of seconds in Retry-After, then retry.',
  });
