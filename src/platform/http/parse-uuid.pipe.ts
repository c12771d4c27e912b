import { PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';

/** Any RFC 4122 shaped id (every version; case-insensitive). The one UUID check of the service. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && isUUID(value, 'all');
}

/**
 * A path id that is not a UUID names nothing: answers the resource's own 404 (e.g.
 * `@Param('id', new ParseUuidPipe(templateNotFound))`) instead of reaching SQL with it.
 */
export class ParseUuidPipe implements PipeTransform<string, string> {
  constructor(private readonly notFound: () => Error) {}

  transform(value: string): string {
    if (!isUuid(value)) throw this.notFound();
    return value;
  }
}
