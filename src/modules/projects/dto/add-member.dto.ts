import { IsDefined, IsEmail, IsIn, MaxLength } from 'class-validator';

/** OWNER is not assignable: a project has exactly one, its creator. */
export const ASSIGNABLE_ROLES = ['ADMIN', 'MEMBER'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export class AddMemberDto {
  @IsDefined()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @IsDefined()
  @IsIn(ASSIGNABLE_ROLES, { message: 'role must be ADMIN or MEMBER' })
  role: AssignableRole;
}
