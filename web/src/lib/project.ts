import { useMemo } from 'react';
import { useParams } from 'react-router';
import { type Api, projectApi } from '../api/client';

/** The project of the current page (`/app/p/:projectId/...`). */
export function useProjectId(): string {
  const { projectId } = useParams();
  if (!projectId) throw new Error('useProjectId() used outside /p/:projectId routes');
  return projectId;
}

/** The API client bound to the current project (sends X-Project-Id). */
export function useApi(): Api {
  const projectId = useProjectId();
  return useMemo(() => projectApi(projectId), [projectId]);
}

/** Path inside the current project: `projectPath(id, 'contacts')` → `/p/<id>/contacts`. */
export function projectPath(projectId: string, ...parts: string[]): string {
  return ['', 'p', projectId, ...parts].join('/');
}

const LAST_PROJECT = 'mailroom.lastProjectId';

/** Remembers the last opened project (an id, never a key) so "/" reopens it. */
export function rememberProject(projectId: string): void {
  try {
    localStorage.setItem(LAST_PROJECT, projectId);
  } catch {}
}

export function lastProject(): string | null {
  try {
    return localStorage.getItem(LAST_PROJECT);
  } catch {
    return null;
  }
}
