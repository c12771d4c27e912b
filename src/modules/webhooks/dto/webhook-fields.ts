import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateBy } from 'class-validator';
import { patternProblem } from '../event-patterns';
import { IsHttpUrl } from '../../../platform/http/validation';

export const MAX_URL_LENGTH = 2_048;
export const MAX_DESCRIPTION_LENGTH = 500;
/** Patterns one endpoint holds at most. */
export const MAX_PATTERNS = 100;

/** An absolute http(s) URL with a host, at most 2,048 characters (422 `invalid_string` otherwise). */
export const IsWebhookUrl = () => IsHttpUrl('url', MAX_URL_LENGTH);

/** A non-empty list of event patterns (exact name, `prefix.*` or `*`); a malformed one is named in the message. */
export const IsEventPatterns = () =>
  applyDecorators(
    IsArray({ context: { code: 'invalid_type' } }),
    ArrayMinSize(1, { message: 'events must hold at least one pattern' }),
    ArrayMaxSize(MAX_PATTERNS, { message: `events may hold at most ${MAX_PATTERNS} patterns` }),
    ValidateBy(
      {
        name: 'isEventPatterns',
        validator: {
          validate: (value: unknown) => Array.isArray(value) && value.every((p) => typeof p === 'string' && patternProblem(p) === null),
          defaultMessage: (args) => {
            const list = Array.isArray(args?.value) ? (args.value as unknown[]) : [];
            const index = list.findIndex((p) => typeof p !== 'string' || patternProblem(p) !== null);
            const bad = list[index];
            return typeof bad === 'string'
              ? `events[${index}] "${bad.slice(0, 100)}" ${patternProblem(bad)}`
              : `events[${index}] must be a string: an event name, a prefix ending in .* or *`;
          },
        },
      },
      { context: { code: 'invalid_string' } },
    ),
  );
