import { type FieldError, validationError } from '../../platform/http/app-error';

/** A `from`/`to` of the list that parses but cannot bound it (out of range, or `from` after `to`). */
export const auditWindowInvalid = (errors: FieldError[]) => validationError(errors);
