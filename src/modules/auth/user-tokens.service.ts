import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { randomToken, sha256Hex } from '../../platform/crypto';
import type { UserTokenKind } from './entities/user-token.entity';

export const TOKEN_TTL_MS: Record<UserTokenKind, number> = {
  verify_email: 24 * 3600 * 1000,
  reset_password: 3600 * 1000,
};

/** One-time tokens for account mail: only the SHA-256 digest is stored; redeeming is a single atomic update. */
@Injectable()
export class UserTokensService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Issues a new token; earlier unused tokens of the same kind stop working, so only the latest mail's link is valid. */
  async issue(userId: string, kind: UserTokenKind): Promise<string> {
    const token = randomToken(32);
    await this.db.transaction(async (em) => {
      await em.query(`UPDATE user_tokens SET used_at = now() WHERE user_id = $1 AND kind = $2 AND used_at IS NULL`, [userId, kind]);
      await em.query(
        `INSERT INTO user_tokens (user_id, kind, token_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision))`,
        [userId, kind, sha256Hex(token), TOKEN_TTL_MS[kind] / 1000],
      );
    });
    return token;
  }

  /** Marks the token used and returns its user, or null when it is unknown, used or expired. */
  async redeem(token: string, kind: UserTokenKind, em: EntityManager = this.db.manager): Promise<string | null> {
    if (token.length > 128) return null;
    const [rows]: [Array<{ user_id: string }>, number] = await em.query(
      `UPDATE user_tokens SET used_at = now()
       WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()
       RETURNING user_id`,
      [sha256Hex(token), kind],
    );
    return rows[0]?.user_id ?? null;
  }
}
