import { Injectable } from '@nestjs/common';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { memberNotFound, projectNotFound } from './projects.errors';

/** A malformed project id in a path is simply a project that does not exist. */
@Injectable()
export class ProjectIdPipe extends ParseUuidPipe {
  constructor() {
    super(projectNotFound);
  }
}

@Injectable()
export class MemberIdPipe extends ParseUuidPipe {
  constructor() {
    super(memberNotFound);
  }
}
