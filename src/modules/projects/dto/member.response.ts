import type { ProjectRole } from '../../auth/principal';

export interface MemberRow {
  userId: string;
  email: string;
  role: ProjectRole;
  createdAt: Date;
}

export interface MemberResponse {
  userId: string;
  email: string;
  role: ProjectRole;
  createdAt: string;
}

export const toMemberResponse = (row: MemberRow): MemberResponse => ({
  userId: row.userId,
  email: row.email,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
});
