import { DeclaredBodyPipe } from '../../../platform/http/declared-body';
import { SEND_BODY, SEND_BODY_OPTIONS } from './send-request';

/** Validates the whole `/v1/send` body at the edge: 422 with one item per problem. */
export const SendRequestPipe = DeclaredBodyPipe(SEND_BODY, SEND_BODY_OPTIONS);
