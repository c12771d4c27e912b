import { Injectable, PipeTransform } from '@nestjs/common';
import { validationError } from '../../../platform/http/app-error';
import { parseSendRequest, SendRequest } from './send-request';

/** Validates the whole `/v1/send` body at the edge: 422 with one item per problem. */
@Injectable()
export class SendRequestPipe implements PipeTransform<unknown, SendRequest> {
  transform(value: unknown): SendRequest {
    const parsed = parseSendRequest(value);
    if (!parsed.request) throw validationError(parsed.errors);
    return parsed.request;
  }
}
