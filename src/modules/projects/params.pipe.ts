import { Injectable, PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { memberNotFound, projectNotFound } from './projects.errors';

/** A malformed project id in a path is simply a project that does not exist. */
@Injectable()
export class ProjectIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUUID(value)) throw projectNotFound();
    return value;
  }
}

@Injectable()
export class MemberIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUUID(value)) throw memberNotFound();
    return value;
  }
}
