import { ApiProperty } from '@nestjs/swagger';
import type { User } from '../entities/user.entity';

export class UserResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Email address', type: String })
  email!: string;
  @ApiProperty({ description: 'Whether the user confirmed the address', type: Boolean })
  emailVerified!: boolean;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
}

export const toUserResponse = (user: User): UserResponse => ({
  id: user.id,
  email: user.email,
  emailVerified: user.emailVerified,
  createdAt: user.createdAt.toISOString(),
});
