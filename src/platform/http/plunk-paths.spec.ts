import type { NextFunction, Request, Response } from 'express';
import { plunkApiPrefixMiddleware, unknownV1RouteMessage } from './plunk-paths';

describe('Plunk paths', () => {
  const rewrite = (url: string): string => {
    const req = { url } as Request;
    plunkApiPrefixMiddleware(req, {} as Response, (() => undefined) as NextFunction);
    return req.url;
  };

  it('serves /api/v1/… as /v1/… and leaves every other path alone', () => {
    expect(rewrite('/api/v1/send')).toBe('/v1/send');
    expect(rewrite('/api/v1/emails?status=sent')).toBe('/v1/emails?status=sent');
    expect(rewrite('/api/v1')).toBe('/v1');
    expect(rewrite('/api/v10/send')).toBe('/api/v10/send');
    expect(rewrite('/api/contacts')).toBe('/api/contacts');
    expect(rewrite('/v1/send')).toBe('/v1/send');
  });

  it('names the route served without /v1, or nothing', () => {
    const app = { router: { stack: [{ route: { path: '/contacts' } }, { route: { path: '/contacts/:id' } }, { route: { path: '/v1/send' } }, {}] } };
    expect(unknownV1RouteMessage('GET', '/v1/contacts', app)).toContain('`/contacts`');
    expect(unknownV1RouteMessage('GET', '/v1/contacts/cnt_1', app)).toContain('`/contacts`');
    expect(unknownV1RouteMessage('GET', '/v1/nothing', app)).toBeNull();
    expect(unknownV1RouteMessage('GET', '/v1/', app)).toBeNull();
    expect(unknownV1RouteMessage('GET', '/contactz', app)).toBeNull();
  });
});
