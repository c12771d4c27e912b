import { insufficientRole } from './auth.errors';

export type ProjectRole = 'OWNER' | 'ADMIN' | 'MEMBER';

/** Who is calling: set on `req.user` by the access guard. */
export interface Principal {
  via: 'secret_key' | 'public_key' | 'session';
  /** Present for key requests, and for session requests to project-scoped routes (`X-Project-Id`). */
  projectId?: string;
  userId?: string;
  sessionId?: string;
  role?: ProjectRole;
  /** Key requests: the key's id, its first characters (the project's `secretPrefix` for the secret key). */
  keyId?: string;
}

/**
 * The project's settings are for OWNER and ADMIN: a dashboard session of a MEMBER reads what it
 * may but changes nothing (403); the secret key may do everything.
 */
export function requireManager(principal: Principal): void {
  if (principal.via === 'session' && principal.role !== 'OWNER' && principal.role !== 'ADMIN') throw insufficientRole();
}
