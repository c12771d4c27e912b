import type { ApiPropertyOptions } from '@nestjs/swagger';
import { z } from 'zod';
import type { FieldError } from '../../../platform/http/app-error';
import { absent, coded, issue, openApiSchemaOf, parseDeclared, unknownKey } from '../../../platform/http/declared-body';
import type { StepType } from '../entities/workflow-step.entity';
import { CONDITION_OPERATORS, conditionFieldProblem, operatorNeedsValue } from './condition';
import { isUuid } from '../../../platform/http/parse-uuid.pipe';
import { checkLiquidSyntax, describeLiquidProblem, textEngine } from '../../templates';

export const DELAY_UNITS = { minutes: 60, hours: 3600, days: 86_400 } as const;
export const MAX_DELAY_SECONDS = 365 * 86_400;
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const SUBSCRIPTION_ACTIONS = ['none', 'subscribe', 'unsubscribe'] as const;

/** The step types a client may add (TRIGGER is created with the workflow). */
export const ADDABLE_STEP_TYPES: StepType[] = ['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A check that also runs beside problems of the fields (their own items): it reads the raw config. */
const always = { when: ({ value }: { value: unknown }) => isObject(value) };
/** The envelope's code and message of every problem of a value (`quiet`: the item leaves `received` out). */
const fails = (code: string, message: string, quiet = false) => ({ error: coded(code, message, quiet) });

/** A config takes only its type's keys, so it never carries something the engine ignores. */
const config = <S extends z.core.$ZodLooseShape>(type: StepType, description: string, shape: S) =>
  z
    .object(shape, { error: coded('invalid_type', 'config must be an object', true) })
    .catchall(unknownKey('unrecognized_keys', `{key} is not part of a ${type} step's config`))
    .meta({ title: type, description });

const eventName = (description: string) =>
  z
    .string(fails('required', 'eventName is required', true))
    .refine((v) => v.trim() !== '', fails('required', 'eventName is required', true))
    .meta({ description });

const integer = (message: string) => z.number(fails('invalid_type', message)).int(fails('invalid_type', message)).min(1, fails('invalid_type', message));

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADERS = 'headers must be an object of header names to string values without CR/LF';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.replace(/\{\{[^}]*\}\}/g, 'x'));
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The strings of a JSON value that the WEBHOOK step renders (those with `{{` or `{%`), with their paths (`body.items.0`). */
function liquidStrings(value: unknown, path: string[], out: Array<[string[], string]> = []): Array<[string[], string]> {
  if (typeof value === 'string') {
    if (value.includes('{{') || value.includes('{%')) out.push([path, value]);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => liquidStrings(v, [...path, String(i)], out));
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) liquidStrings(v, [...path, k], out);
  }
  return out;
}

const DELAY = config('DELAY', 'Waits, then goes on (survives restarts)', {
  amount: integer('amount must be an integer >= 1').meta({ description: `How many units to wait (at most ${MAX_DELAY_SECONDS / 86_400} days in all)` }),
  unit: z.enum(Object.keys(DELAY_UNITS) as [keyof typeof DELAY_UNITS], fails('invalid_enum_value', 'unit must be minutes, hours or days')).meta({ description: 'Unit of amount' }),
}).refine((c) => c.amount * DELAY_UNITS[c.unit] <= MAX_DELAY_SECONDS, {
  ...fails('too_big', 'a DELAY is at most 365 days'),
  path: ['amount'],
  when: ({ value }) => isObject(value) && typeof value.amount === 'number' && Object.hasOwn(DELAY_UNITS, value.unit as string),
});

const CONDITION = config('CONDITION', 'Branches: its outgoing transitions carry branch yes and no', {
  field: z
    .string(fails('invalid_field', 'field is required'))
    .superRefine((v, ctx) => {
      const problem = conditionFieldProblem(v);
      if (problem) issue(ctx, [], 'invalid_field', problem, v);
    })
    .meta({
      description: 'contact.email, contact.subscribed, data.<path> (contact data), event.<key> (the trigger event data) or workflow.<key> (the execution context)',
      example: 'data.plan',
    }),
  operator: z
    .enum(CONDITION_OPERATORS as [string, ...string[]], fails('invalid_enum_value', `operator must be one of ${CONDITION_OPERATORS.join(', ')}`))
    .meta({ description: 'Comparison, as in segment filters' }),
  value: absent(z.union([z.string(), z.number(), z.boolean()], fails('invalid_type', 'value must be a string, number or boolean', true))).meta({
    description: 'Value to compare with; required except with exists and notExists',
  }),
}).refine((c) => !operatorNeedsValue(c.operator) || (c.value !== undefined && c.value !== null), {
  error: (iss) => coded('required', `value is required with ${(iss.input as { operator: string }).operator}`, true),
  path: ['value'],
  when: ({ value }) => isObject(value) && (CONDITION_OPERATORS as readonly unknown[]).includes(value.operator),
});

const WEBHOOK = config(
  'WEBHOOK',
  'Calls a URL (10 s timeout; 5xx and timeouts retried 3 times, then the execution FAILS; 4xx fails at once). Signed with X-Mailroom-Timestamp and X-Signature (HMAC-SHA256 with the project webhookSecret); private addresses are refused',
  {
    url: z
      .string(fails('invalid_string', 'url must be an http(s) URL'))
      .refine(isHttpUrl, fails('invalid_string', 'url must be an http(s) URL'))
      .meta({ format: 'uri', description: 'http(s) URL; {{variables}} are rendered' }),
    method: absent(z.enum(WEBHOOK_METHODS, fails('invalid_enum_value', `method must be one of ${WEBHOOK_METHODS.join(', ')}`)))
      .transform((m) => m ?? 'POST')
      .meta({ description: 'HTTP method (default POST)' }),
    headers: z
      .record(z.string(), z.unknown().meta({ type: 'string' }), fails('invalid_type', HEADERS, true))
      .refine((h) => Object.entries(h).every(([k, v]) => typeof v === 'string' && HEADER_NAME.test(k) && !/[\r\n]/.test(v)), fails('invalid_type', HEADERS, true))
      .transform((h) => h as Record<string, string>)
      .optional()
      .meta({ description: 'Extra request headers; values are rendered, no CR/LF' }),
    body: z.union([z.string(), z.record(z.string(), z.unknown()).meta({ additionalProperties: true })], fails('invalid_type', 'body must be a string or an object', true)).optional().meta({
      description:
        'Request body, rendered; default `{contact: {id, email, subscribed, data}, workflow: {id, name}, execution: {id, context}, event}` (in Liquid, `workflow.<key>` is the execution context)',
    }),
  },
).superRefine(
  (_, ctx) => {
    // The strings the step renders are Liquid, checked as a template's are (syntax, huge literal ranges).
    const raw = ctx.value as Record<string, unknown>;
    for (const key of ['url', 'headers', 'body'] as const) {
      if (key === 'headers' && !isObject(raw.headers)) continue;
      for (const [path, source] of liquidStrings(raw[key], [key])) {
        const problem = checkLiquidSyntax(source, textEngine);
        if (problem) issue(ctx, path, 'invalid_template', describeLiquidProblem(problem), undefined);
      }
    }
  },
  always,
);

const UPDATE_CONTACT = config('UPDATE_CONTACT', 'Changes the contact: updates, a subscriptionAction other than none, or both', {
  updates: z
    .record(z.string(), z.unknown(), fails('invalid_type', 'updates must be an object', true))
    .optional()
    .meta({ additionalProperties: true, description: 'Contact data keys to set (as PATCH /contacts/:id data: null deletes a key)' }),
  subscriptionAction: absent(z.enum(SUBSCRIPTION_ACTIONS, fails('invalid_enum_value', 'subscriptionAction must be none, subscribe or unsubscribe'))).meta({
    description: 'Subscribe or unsubscribe the contact (default none)',
  }),
}).refine(
  (c) => {
    const raw = c as Record<string, unknown>;
    return (isObject(raw.updates) && Object.keys(raw.updates).length > 0) || (raw.subscriptionAction ?? 'none') !== 'none';
  },
  { ...fails('required', 'an UPDATE_CONTACT step needs updates or a subscriptionAction', true), ...always },
);

/** Each step type's config, declared once (docs/decisions.md#workflows): its checks, 422 items, type and OpenAPI shape. */
export const STEP_CONFIGS = {
  TRIGGER: config('TRIGGER', "The entry step, created with the workflow; its config follows the workflow's triggerConfig (change it with PATCH /workflows/:id)", {
    eventName: eventName('Event that starts the workflow'),
  }),
  SEND_EMAIL: config('SEND_EMAIL', "Sends a template to the contact; the template's type applies (a MARKETING one skips an unsubscribed contact and the execution goes on)", {
    templateId: z
      .string(fails('invalid_string', 'templateId must be the UUID of a template of this project'))
      .refine(isUuid, fails('invalid_string', 'templateId must be the UUID of a template of this project'))
      .meta({ format: 'uuid', description: 'A template of this project; variables are the contact data plus `event` and `workflow`' }),
  }),
  DELAY,
  WAIT_FOR_EVENT: config('WAIT_FOR_EVENT', 'Waits for the first matching event of the contact after the wait began, or the timeout; its outgoing transitions carry waitOutcome EVENT and TIMEOUT', {
    eventName: eventName('Event to wait for'),
    timeout: integer('timeout is a whole number of seconds, 1 to 365 days')
      .max(MAX_DELAY_SECONDS, fails('invalid_type', 'timeout is a whole number of seconds, 1 to 365 days'))
      .nullable()
      .optional()
      .meta({ description: 'Seconds to wait at most; without it the wait has no end' }),
  }),
  CONDITION,
  WEBHOOK,
  UPDATE_CONTACT,
  EXIT: config('EXIT', 'Ends the execution as EXITED', {
    reason: z.string(fails('invalid_type', 'reason must be a string', true)).nullable().optional().meta({ description: "Stored as the execution's exitReason" }),
  }),
} satisfies Record<StepType, z.ZodType>;

/** A step type's config as the engine reads it. */
export type StepConfig<T extends StepType> = z.output<(typeof STEP_CONFIGS)[T]>;

const configOf = (types: readonly StepType[], description: string): ApiPropertyOptions => ({ description, oneOf: types.map((type) => openApiSchemaOf(STEP_CONFIGS[type])) });

/** OpenAPI of the config of a step a client adds or edits. */
export const STEP_CONFIG_SCHEMA = configOf(ADDABLE_STEP_TYPES, "Settings of the step; the shape depends on the step's type (only that type's keys are accepted)");

/** OpenAPI of any step's config, the entry TRIGGER step's included (responses). */
export const STORED_STEP_CONFIG_SCHEMA = configOf(Object.keys(STEP_CONFIGS) as StepType[], "Settings of the step; the shape depends on the step's type");

interface Checked {
  config: Record<string, unknown>;
  problems: FieldError[];
}

/**
 * A step's config checked against its type's declaration: the config with only the known keys,
 * or one 422 item per bad field (`config.url`, `config.body.n`). Checks that need the database
 * (a template of the project) are the service's.
 */
export function checkStepConfig(type: StepType, raw: unknown): Checked {
  const parsed = parseDeclared(z.object({ config: STEP_CONFIGS[type] as z.ZodType }), { config: raw });
  if (parsed.value === null) return { config: {}, problems: parsed.errors };
  return { config: parsed.value.config as Record<string, unknown>, problems: [] };
}

/** A stored step's config as its type's declaration gives it (it was checked when written). */
export function storedConfig<T extends StepType>(step: { config: Record<string, unknown> }, _type: T): StepConfig<T> {
  return step.config as StepConfig<T>;
}

export function delaySeconds(config: Record<string, unknown>): number {
  const { amount, unit } = storedConfig({ config }, 'DELAY');
  return amount * DELAY_UNITS[unit];
}
