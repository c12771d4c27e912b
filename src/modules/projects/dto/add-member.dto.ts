import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsIn, MaxLength } from 'class-validator';

/** OWNER is not assignable: a project has exactly one, its creator. */
export const ASSIGNABLE_ROLES = ['ADMIN', 'MEMBER'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export class AddMemberDto {
  @IsDefined()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  @ApiProperty({ description: 'Email address', type: String })
  email: string;

  @ApiProperty({ description: 'Role in the project (OWNER is not assignable)', enum: ASSIGNABLE_ROLES })
  @IsDefined()
  @IsIn(ASSIGNABLE_ROLES, { message: 'role must be ADMIN or MEMBER' })
  role: AssignableRole;
}
