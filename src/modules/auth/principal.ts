export type ProjectRole = 'OWNER' | 'ADMIN' | 'MEMBER';

/** Who is calling: set on `req.user` by the access guard. */
export interface Principal {
  via: 'secret_key' | 'public_key' | 'session';
  /** Present for key requests, and for session requests to project-scoped routes (`X-Project-Id`). */
  projectId?: string;
  userId?: string;
  sessionId?: string;
  role?: ProjectRole;
}
