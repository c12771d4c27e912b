import { ValidationError, ValidationPipe } from '@nestjs/common';
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
      items.push({ field, message, code, received: error.value === undefined ? undefined : summarize(error.value) });
    }
    if (error.children?.length) items.push(...toFieldErrors(error.children, field));
  }
  return items;
}

function summarize(value: unknown): unknown {
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
