import type { User } from '../entities/user.entity';

export interface UserResponse {
  id: string;
  email: string;
  emailVerified: boolean;
  createdAt: string;
}

export const toUserResponse = (user: User): UserResponse => ({
  id: user.id,
  email: user.email,
  emailVerified: user.emailVerified,
  createdAt: user.createdAt.toISOString(),
});
