import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import type { Principal } from '../auth';
import { API_KEY_PATTERN, keyPrefix } from './api-keys';
import { ProjectsService } from './projects.service';

/** `Authorization: Bearer sk_…|pk_…`; whether a public key is enough is the guard's decision. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, 'api-key') {
  constructor(private readonly projects: ProjectsService) {
    super();
  }

  async validate(req: Request): Promise<Principal | false> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '');
    if (!match || !API_KEY_PATTERN.test(match[1])) return false;
    const found = await this.projects.resolveKey(match[1]);
    if (!found) return false;
    return { via: found.kind === 'secret' ? 'secret_key' : 'public_key', projectId: found.projectId, keyId: keyPrefix(match[1]) };
  }
}
