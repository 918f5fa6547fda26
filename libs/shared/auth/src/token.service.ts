import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Caller } from '@calendar/shared/http';
import { IsNull, Repository } from 'typeorm';
import { ApiTokenEntity } from './entities/api-token.entity';
import type { UserEntity } from './entities/user.entity';

/** 32 random bytes, URL-safe base64: 43 characters. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens carry 256 bits of entropy, so a plain SHA-256 digest is a safe, fast lookup key. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The user of a live token, by the token's digest (the unique index on `token_hash`). */
const CALLER_BY_DIGEST = 'SELECT u.id AS id, u.login AS login, u.role AS role FROM api_tokens t INNER JOIN users u ON u.id = t.user_id WHERE t.token_hash = ? AND t.revoked_at IS NULL LIMIT 1';

@Injectable()
export class TokenService {
  constructor(@InjectRepository(ApiTokenEntity) private readonly tokens: Repository<ApiTokenEntity>) {}

  /** Makes a new token for the user and returns it; only its digest is stored. */
  async issue(user: UserEntity, token = generateToken()): Promise<string> {
    await this.tokens.save(this.tokens.create({ userId: user.id, tokenHash: hashToken(token), revokedAt: null }));
    return token;
  }

  /**
   * Makes `token` a live token of the user, whatever it was: issued when unknown, given back to the user and
   * un-revoked when its digest is already stored (a configured token revoked earlier, say).
   */
  async grant(user: UserEntity, token: string): Promise<void> {
    const tokenHash = hashToken(token);
    const existing = await this.tokens.findOne({ where: { tokenHash } });
    if (!existing) {
      await this.issue(user, token);
      return;
    }
    if (existing.userId !== user.id || existing.revokedAt !== null) await this.tokens.update({ id: existing.id }, { userId: user.id, revokedAt: null });
  }

  /** Revokes a token; false when no live token matches. */
  async revoke(token: string): Promise<boolean> {
    const result = await this.tokens.update({ tokenHash: hashToken(token), revokedAt: IsNull() }, { revokedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /**
   * The caller named by an Authorization header (`Bearer <token>` or Basic `login:token`), or null when the
   * credentials are malformed, unknown, revoked, or name another user's token.
   */
  async authenticate(header: string): Promise<Caller | null> {
    const [scheme, value = ''] = header.trim().split(/\s+/, 2);
    let token: string;
    let login: string | null = null;
    if (/^bearer$/i.test(scheme)) {
      token = value;
    } else if (/^basic$/i.test(scheme)) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 1) return null;
      login = decoded.slice(0, colon);
      token = decoded.slice(colon + 1).replace(/\s+/g, '');
    } else {
      return null;
    }
    if (token === '' || token.length > 512) return null;
    // One query per authenticated request: the live token joined to its user, written once (the query builder cost
    // every request more than the statement itself).
    const [row]: { id: number; login: string; role: Caller['role'] }[] = await this.tokens.manager.query(CALLER_BY_DIGEST, [hashToken(token)]);
    if (!row) return null;
    if (login !== null && !sameText(login, row.login)) return null;
    return { id: Number(row.id), login: row.login, role: row.role };
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
