import { applyDecorators, ValidationError, ValidationPipe } from '@nestjs/common';
import { IsString, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { FieldError, validationError } from './app-error';

const CODE_BY_CONSTRAINT: Record<string, string> = {
  isEmail: 'invalid_string',
  isUrl: 'invalid_string',
  isUuid: 'invalid_string',
  matches: 'invalid_string',
  isIso8601: 'invalid_string',
  isDateString: 'invalid_string',
  isString: 'invalid_type',
  isNumber: 'invalid_type',
  isInt: 'invalid_type',
  isBoolean: 'invalid_type',
  isObject: 'invalid_type',
  isArray: 'invalid_type',
  nestedValidation: 'invalid_type',
  isEnum: 'invalid_enum_value',
  isIn: 'invalid_enum_value',
  maxLength: 'too_big',
  max: 'too_big',
  arrayMaxSize: 'too_big',
  minLength: 'too_small',
  min: 'too_small',
  arrayMinSize: 'too_small',
  isNotEmpty: 'too_small',
  isDefined: 'required',
  whitelistValidation: 'unrecognized_keys',
};

/** Flattens class-validator's tree into one item per failing field, first constraint only. */
export function toFieldErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  const items: FieldError[] = [];
  for (const error of errors) {
    const field = /^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      // class-validator reports constraints in reverse declaration order; required-ness wins.
      const [name, message] = constraints.find(([n]) => n === 'isDefined') ?? constraints[constraints.length - 1];
      const code = (error.contexts?.[name]?.code as string | undefined) ?? CODE_BY_CONSTRAINT[name] ?? 'invalid';
      items.push({ field, message, code, received: error.value === undefined || isSecretField(field) ? undefined : summarize(error.value) });
    }
    if (error.children?.length) items.push(...toFieldErrors(error.children, field));
  }
  return items;
}

/** Fields whose value is never echoed back in `received` (nor anywhere else). */
const SECRET_FIELD = /password|passphrase|passwd|secret|token|key/i;

/** Whether a field (dotted path) names a secret: its last segment says password, secret, token or key. */
export function isSecretField(field: string): boolean {
  const last = field.replace(/(\[\d+\])+$/, '').split('.').pop() ?? field;
  return SECRET_FIELD.test(last);
}

/** A received value short enough for an error item: long strings cut, objects and arrays named. */
export function summarize(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  return Array.isArray(value) ? 'array' : 'object';
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => validationError(toFieldErrors(errors)),
  });
}

/**
 * For PATCH bodies: the field may be left out, but not cleared. `null` is a 422 naming the field
 * (with `@IsOptional()` it slipped through validation and reached a NOT NULL column).
 */
export const OptionalNotNull = () =>
  applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    ValidateBy(
      {
        name: 'notNull',
        validator: { validate: (value: unknown) => value !== null, defaultMessage: (args) => `${args?.property ?? 'value'} cannot be null; leave it out to keep the current value` },
      },
      { context: { code: 'invalid_type' } },
    ),
  );

/**
 * 422 items for keys that look like a misspelt field (`templateId` for `template`): the body
 * parsers ignore unknown keys, which would silently drop what the caller meant.
 * `nearMisses` maps each misspelling to the field's real name.
 */
export function nearMissErrors(input: Record<string, unknown>, nearMisses: Record<string, string>): FieldError[] {
  return Object.keys(input)
    .filter((key) => Object.prototype.hasOwnProperty.call(nearMisses, key))
    .map((key) => ({ field: key, code: 'unrecognized_keys', message: `unknown field ${key}: did you mean ${nearMisses[key]}?`, received: key }));
}

/** An absolute http(s) URL with a host, without white space or control characters, at most 2,048 characters (422 `invalid_string` otherwise); `field` names it in messages. */
export const IsHttpUrl = (field = 'url', maxLength = 2_048) =>
  applyDecorators(
    IsString({ context: { code: 'invalid_type' } }),
    MaxLength(maxLength, { message: `${field} must be at most ${maxLength} characters` }),
    ValidateBy(
      {
        name: 'isHttpUrl',
        validator: {
          validate: (value: unknown) => {
            // WHATWG parsing drops tabs and line breaks silently: the value stored would keep them.
            if (typeof value !== 'string' || /[\s\u0000-\u001f\u007f]/.test(value)) return false;
            try {
              const url = new URL(value);
              return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
            } catch {
              return false;
            }
          },
          defaultMessage: () => `${field} must be an absolute http or https URL`,
        },
      },
      { context: { code: 'invalid_string' } },
    ),
  );
