import { useQuery } from '@tanstack/react-query';
import { accountClient as api, authClient as auth, data } from './client';
import { qk } from './queryKeys';
import type { AssignableRole, ProjectSettings, ProjectWithKeys } from './types';

const project = (id: string) => ({ params: { path: { id } } });

/** Account-level calls (no project header). */
export const accountApi = {
  me: () => data(api.GET('/users/@me')),
  config: () => data(api.GET('/config')),
  signup: (body: { email: string; password: string }) => data(auth.POST('/auth/signup', { body })),
  login: (body: { email: string; password: string }) => data(auth.POST('/auth/login', { body })),
  logout: () => data(auth.POST('/auth/logout')),
  /** Deletes the account with the projects it owns (409 while one of them has other members). */
  deleteAccount: (password: string) => data(api.DELETE('/users/@me', { body: { password } })),
  verifyEmail: (token: string) => data(auth.POST('/auth/verify-email', { body: { token } })),
  requestVerification: (email: string) => data(auth.POST('/auth/request-verification', { body: { email } })),
  requestPasswordReset: (email: string) => data(auth.POST('/auth/request-password-reset', { body: { email } })),
  resetPassword: (body: { token: string; password: string }) => data(auth.POST('/auth/reset-password', { body })),

  projects: () => data(api.GET('/users/@me/projects')),
  project: (id: string) => data(api.GET('/users/@me/projects/{id}', project(id))),
  createProject: async (name: string) => (await data(api.POST('/users/@me/projects', { body: { name } }))) as ProjectWithKeys,
  updateProject: (id: string, body: ProjectSettings) => data(api.PATCH('/users/@me/projects/{id}', { ...project(id), body })),
  /** What the project holds per table (rows, estimated bytes, oldest event and email). */
  dataHeld: (id: string) => data(api.GET('/users/@me/projects/{id}/storage', project(id))),
  deleteProject: (id: string) => data(api.DELETE('/users/@me/projects/{id}', project(id))),
  regenerateKeys: async (id: string) => (await data(api.POST('/users/@me/projects/{id}/regenerate-keys', project(id)))) as ProjectWithKeys,

  members: (projectId: string) => data(api.GET('/projects/{id}/members', project(projectId))),
  addMember: (projectId: string, body: { email: string; role: AssignableRole }) => data(api.POST('/projects/{id}/members', { ...project(projectId), body })),
  updateMember: (projectId: string, userId: string, role: AssignableRole) =>
    data(api.PATCH('/projects/{id}/members/{userId}', { params: { path: { id: projectId, userId } }, body: { role } })),
  removeMember: (projectId: string, userId: string) => data(api.DELETE('/projects/{id}/members/{userId}', { params: { path: { id: projectId, userId } } })),
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

export function useDataHeld(projectId: string) {
  return useQuery({ queryKey: qk.p(projectId, 'storage'), queryFn: () => accountApi.dataHeld(projectId) });
}
