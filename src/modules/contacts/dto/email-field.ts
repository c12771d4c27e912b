import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';

/** No control characters: CR/LF in an address is header injection, never a typo. */
export const NO_CONTROL_CHARS = /^[^\u0000-\u001f\u007f]*$/;

/**
 * An email address field: surrounding spaces are tolerated (emails are stored trimmed and
 * lowercased), CR/LF and other control characters are rejected rather than trimmed away.
 */
export function EmailField(name = 'email') {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.replace(/^ +| +$/g, '') : value)),
    // class-validator reports the first-declared failing constraint last; the pipe shows that one.
    IsEmail({}, { message: `${name} must be a valid email address` }),
    Matches(NO_CONTROL_CHARS, { message: `${name} must not contain control characters (CR/LF)` }),
    MaxLength(320),
    IsString({ message: `${name} must be a string` }),
  );
}
