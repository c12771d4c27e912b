import { ApiProperty } from '@nestjs/swagger';
import type { ProjectRole } from '../../auth';

export interface MemberRow {
  userId: string;
  email: string;
  role: ProjectRole;
  createdAt: Date;
}

export class MemberResponse {
  @ApiProperty({ description: 'User id (UUID)', type: String })
  userId!: string;
  @ApiProperty({ description: 'Email address', type: String })
  email!: string;
  @ApiProperty({ description: "Role in the project", enum: ["OWNER", "ADMIN", "MEMBER"] })
  role!: ProjectRole;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
}

export const toMemberResponse = (row: MemberRow): MemberResponse => ({
  userId: row.userId,
  email: row.email,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
});
