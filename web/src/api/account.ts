import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './client';
import { qk } from './queryKeys';
import type { Member, Project, ProjectSettings, ProjectWithKeys, PublicConfig, Role, User } from './types';

/** Account-level calls (no project header). */
export const accountApi = {
  me: () => apiRequest<User>('/users/@me'),
  config: () => apiRequest<PublicConfig>('/config'),
  signup: (body: { email: string; password: string }) => apiRequest<User>('/auth/signup', { method: 'POST', body, redirectOn401: false }),
  login: (body: { email: string; password: string }) => apiRequest<User>('/auth/login', { method: 'POST', body, redirectOn401: false }),
  logout: () => apiRequest<{ success: true }>('/auth/logout', { method: 'POST', body: {}, redirectOn401: false }),
  verifyEmail: (token: string) => apiRequest<User>('/auth/verify-email', { method: 'POST', body: { token }, redirectOn401: false }),
  requestVerification: (email: string) => apiRequest<unknown>('/auth/request-verification', { method: 'POST', body: { email }, redirectOn401: false }),
  requestPasswordReset: (email: string) => apiRequest<unknown>('/auth/request-password-reset', { method: 'POST', body: { email }, redirectOn401: false }),
  resetPassword: (body: { token: string; password: string }) => apiRequest<{ success: true }>('/auth/reset-password', { method: 'POST', body, redirectOn401: false }),

  projects: () => apiRequest<Project[]>('/users/@me/projects'),
  project: (id: string) => apiRequest<Project>(`/users/@me/projects/${encodeURIComponent(id)}`),
  createProject: (name: string) => apiRequest<ProjectWithKeys>('/users/@me/projects', { method: 'POST', body: { name } }),
  updateProject: (id: string, body: ProjectSettings & { disabled?: false }) =>
    apiRequest<Project>(`/users/@me/projects/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
  deleteProject: (id: string) => apiRequest<void>(`/users/@me/projects/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  regenerateKeys: (id: string) => apiRequest<ProjectWithKeys>(`/users/@me/projects/${encodeURIComponent(id)}/regenerate-keys`, { method: 'POST', body: {} }),

  members: (projectId: string) => apiRequest<Member[]>(`/projects/${encodeURIComponent(projectId)}/members`),
  addMember: (projectId: string, body: { email: string; role: Role }) => apiRequest<Member>(`/projects/${encodeURIComponent(projectId)}/members`, { method: 'POST', body }),
  updateMember: (projectId: string, userId: string, role: Role) =>
    apiRequest<Member>(`/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`, { method: 'PATCH', body: { role } }),
  removeMember: (projectId: string, userId: string) => apiRequest<void>(`/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
};

/** The signed-in user; a 401 here sends the browser to the login page (client.ts). */
export function useMe() {
  return useQuery({ queryKey: qk.me, queryFn: accountApi.me, staleTime: 60_000 });
}

export function usePublicConfig() {
  return useQuery({ queryKey: qk.config, queryFn: accountApi.config, staleTime: 5 * 60_000 });
}

export function useProjects() {
  return useQuery({ queryKey: qk.projects, queryFn: accountApi.projects });
}

export function useProject(projectId: string) {
  return useQuery({ queryKey: qk.project(projectId), queryFn: () => accountApi.project(projectId) });
}
