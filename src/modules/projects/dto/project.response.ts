import type { KeyPair } from '../api-keys';
import type { Project } from '../entities/project.entity';

export interface ProjectResponse {
  id: string;
  name: string;
  public?: string;
  secret?: string;
  publicPrefix: string;
  secretPrefix: string;
  disabled: boolean;
  disabledReason: string | null;
  tracking: string;
  language: string;
  role?: string;
  createdAt: string;
  updatedAt: string;
}

/** Keys appear in full only right after creation or rotation. */
export function toProjectResponse(project: Project, keys?: KeyPair, role?: string): ProjectResponse {
  return {
    id: project.id,
    name: project.name,
    ...(keys ? { public: keys.public, secret: keys.secret } : {}),
    publicPrefix: project.publicPrefix,
    secretPrefix: project.secretPrefix,
    disabled: project.disabled,
    disabledReason: project.disabledReason,
    tracking: project.tracking,
    language: project.language,
    ...(role ? { role } : {}),
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}
