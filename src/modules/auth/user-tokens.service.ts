import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { randomToken, sha256Hex } from '../../platform/crypto';
import { AuthRepository } from './auth.repository';
import type { UserTokenKind } from './entities/user-token.entity';

export const TOKEN_TTL_MS: Record<UserTokenKind, number> = {
  verify_email: 24 * 3600 * 1000,
  reset_password: 3600 * 1000,
};

/** One-time tokens for account mail: only the SHA-256 digest is stored; redeeming is a single atomic update. */
@Injectable()
export class UserTokensService {
  constructor(private readonly repository: AuthRepository) {}

  /** Issues a new token; earlier unused tokens of the same kind stop working, so only the latest mail's link is valid. */
  async issue(userId: string, kind: UserTokenKind): Promise<string> {
    const token = randomToken(32);
    await this.repository.replaceToken(userId, kind, sha256Hex(token), TOKEN_TTL_MS[kind] / 1000);
    return token;
  }

  /** Marks the token used and returns its user, or null when it is unknown, used or expired. */
  async redeem(token: string, kind: UserTokenKind, em?: EntityManager): Promise<string | null> {
    if (token.length > 128) return null;
    return this.repository.redeemToken(sha256Hex(token), kind, em);
  }
}
