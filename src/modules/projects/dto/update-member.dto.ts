import { IsDefined, IsIn } from 'class-validator';
import { ASSIGNABLE_ROLES, AssignableRole } from './add-member.dto';

export class UpdateMemberDto {
  @IsDefined()
  @IsIn(ASSIGNABLE_ROLES, { message: 'role must be ADMIN or MEMBER' })
  role: AssignableRole;
}
