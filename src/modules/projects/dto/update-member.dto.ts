import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn } from 'class-validator';
import { ASSIGNABLE_ROLES, AssignableRole } from './add-member.dto';

export class UpdateMemberDto {
  @ApiProperty({ description: 'Role in the project (OWNER is not assignable)', enum: ASSIGNABLE_ROLES })
  @IsDefined()
  @IsIn(ASSIGNABLE_ROLES, { message: 'role must be ADMIN or MEMBER' })
  role: AssignableRole;
}
