import { SetMetadata } from '@nestjs/common';

/**
 * The HTTP access conventions every controller declares, platform ones (health, metrics) included,
 * and the OpenAPI document describes; the auth module's global guard enforces them.
 */
export const ACCESS_KEY = 'mailroom:access';

/**
 * How a route authenticates; the global guard denies routes that declare none.
 * - public: no credentials.
 * - secret: the project's secret key, or a dashboard session with `X-Project-Id`.
 * - public-or-secret: as `secret`, plus the public key (only `/v1/track`).
 * - session: a dashboard session; no project is derived.
 */
export type AccessKind = 'public' | 'secret' | 'public-or-secret' | 'session';

export const Public = () => SetMetadata(ACCESS_KEY, 'public' satisfies AccessKind);
export const SecretKey = () => SetMetadata(ACCESS_KEY, 'secret' satisfies AccessKind);
export const PublicOrSecretKey = () => SetMetadata(ACCESS_KEY, 'public-or-secret' satisfies AccessKind);
export const Session = () => SetMetadata(ACCESS_KEY, 'session' satisfies AccessKind);

/** The dashboard session's cookie. */
export const SESSION_COOKIE = 'mailroom_session';
