import type { ApiPropertyOptions } from '@nestjs/swagger';
import type { FieldError } from '../../../platform/http/app-error';
import type { SchemaObject } from '../../../platform/http/openapi-responses';
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

/** One step type's config: an object schema whose `properties` are the only keys it takes. */
type ConfigShape = SchemaObject & { type: 'object'; properties: Record<string, SchemaObject> };

/**
 * Each step type's config, written once: its keys (the only ones `checkStepConfig` accepts, in
 * the order a config is stored), which are required, and their OpenAPI shape (the step DTOs'
 * `config`). The checks of the values are `checkStepConfig`'s, with these constants.
 */
export const STEP_CONFIGS: Record<StepType, ConfigShape> = {
  TRIGGER: {
    title: 'TRIGGER',
    type: 'object',
    required: ['eventName'],
    description: "The entry step, created with the workflow; its config follows the workflow's triggerConfig (change it with PATCH /workflows/:id)",
    properties: { eventName: { type: 'string', description: 'Event that starts the workflow' } },
  },
  SEND_EMAIL: {
    title: 'SEND_EMAIL',
    type: 'object',
    required: ['templateId'],
    description: "Sends a template to the contact; the template's type applies (a MARKETING one skips an unsubscribed contact and the execution goes on)",
    properties: { templateId: { type: 'string', format: 'uuid', description: 'A template of this project; variables are the contact data plus `event` and `workflow`' } },
  },
  DELAY: {
    title: 'DELAY',
    type: 'object',
    required: ['amount', 'unit'],
    description: 'Waits, then goes on (survives restarts)',
    properties: {
      amount: { type: 'integer', minimum: 1, description: `How many units to wait (at most ${MAX_DELAY_SECONDS / 86_400} days in all)` },
      unit: { type: 'string', enum: Object.keys(DELAY_UNITS), description: 'Unit of amount' },
    },
  },
  WAIT_FOR_EVENT: {
    title: 'WAIT_FOR_EVENT',
    type: 'object',
    required: ['eventName'],
    description: 'Waits for the first matching event of the contact after the wait began, or the timeout; its outgoing transitions carry waitOutcome EVENT and TIMEOUT',
    properties: {
      eventName: { type: 'string', description: 'Event to wait for' },
      timeout: { type: 'integer', minimum: 1, maximum: MAX_DELAY_SECONDS, nullable: true, description: 'Seconds to wait at most; without it the wait has no end' },
    },
  },
  CONDITION: {
    title: 'CONDITION',
    type: 'object',
    required: ['field', 'operator'],
    description: 'Branches: its outgoing transitions carry branch yes and no',
    properties: {
      field: {
        type: 'string',
        description: 'contact.email, contact.subscribed, data.<path> (contact data), event.<key> (the trigger event data) or workflow.<key> (the execution context)',
        example: 'data.plan',
      },
      operator: { type: 'string', enum: [...CONDITION_OPERATORS], description: 'Comparison, as in segment filters' },
      value: {
        oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
        description: 'Value to compare with; required except with exists and notExists',
      },
    },
  },
  WEBHOOK: {
    title: 'WEBHOOK',
    type: 'object',
    required: ['url'],
    description:
      'Calls a URL (10 s timeout; 5xx and timeouts retried 3 times, then the execution FAILS; 4xx fails at once). Signed with X-Mailroom-Timestamp and X-Signature (HMAC-SHA256 with the project webhookSecret); private addresses are refused',
    properties: {
      url: { type: 'string', format: 'uri', description: 'http(s) URL; {{variables}} are rendered' },
      method: { type: 'string', enum: [...WEBHOOK_METHODS], description: 'HTTP method (default POST)' },
      headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Extra request headers; values are rendered, no CR/LF' },
      body: {
        oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
        description: 'Request body, rendered; default `{contact: {id, email, subscribed, data}, workflow: {id, name}, execution: {id, context}, event}` (in Liquid, `workflow.<key>` is the execution context)',
      },
    },
  },
  UPDATE_CONTACT: {
    title: 'UPDATE_CONTACT',
    type: 'object',
    description: 'Changes the contact: updates, a subscriptionAction other than none, or both',
    properties: {
      updates: { type: 'object', additionalProperties: true, description: 'Contact data keys to set (as PATCH /contacts/:id data: null deletes a key)' },
      subscriptionAction: { type: 'string', enum: [...SUBSCRIPTION_ACTIONS], description: 'Subscribe or unsubscribe the contact (default none)' },
    },
  },
  EXIT: {
    title: 'EXIT',
    type: 'object',
    description: "Ends the execution as EXITED",
    properties: { reason: { type: 'string', nullable: true, description: "Stored as the execution's exitReason" } },
  },
};

const configOf = (types: readonly StepType[], description: string): ApiPropertyOptions => ({ description, oneOf: types.map((type) => STEP_CONFIGS[type]) });

/** OpenAPI of the config of a step a client adds or edits. */
export const STEP_CONFIG_SCHEMA = configOf(ADDABLE_STEP_TYPES, "Settings of the step; the shape depends on the step's type (only that type's keys are accepted)");

/** OpenAPI of any step's config, the entry TRIGGER step's included (responses). */
export const STORED_STEP_CONFIG_SCHEMA = configOf(Object.keys(STEP_CONFIGS) as StepType[], "Settings of the step; the shape depends on the step's type");

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

interface Checked {
  config: Record<string, unknown>;
  problems: FieldError[];
}

/**
 * Validates a step's config against its type (docs/decisions.md#workflows) and returns it with
 * only the known keys. Checks that need the database (a template of the project) are the
 * service's. Unknown keys are refused, so a config never carries something the engine ignores.
 */
export function checkStepConfig(type: StepType, raw: unknown): Checked {
  const problems: FieldError[] = [];
  const fail = (key: string, code: string, message: string, received?: unknown) =>
    problems.push({ field: key ? `config.${key}` : 'config', code, message, received });
  if (!isObject(raw)) {
    fail('', 'invalid_type', 'config must be an object');
    return { config: {}, problems };
  }
  const allowed = Object.keys(STEP_CONFIGS[type].properties);
  for (const key of Object.keys(raw)) if (!allowed.includes(key)) fail(key, 'unrecognized_keys', `${key} is not part of a ${type} step's config`);
  const config: Record<string, unknown> = {};
  for (const key of allowed) if (raw[key] !== undefined) config[key] = raw[key];

  switch (type) {
    case 'TRIGGER':
      if (!nonEmptyString(raw.eventName)) fail('eventName', 'required', 'eventName is required');
      break;
    case 'SEND_EMAIL':
      if (typeof raw.templateId !== 'string' || !isUuid(raw.templateId))
        fail('templateId', 'invalid_string', 'templateId must be the UUID of a template of this project', raw.templateId);
      break;
    case 'DELAY': {
      const amount = raw.amount;
      const unit = raw.unit as keyof typeof DELAY_UNITS;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1) fail('amount', 'invalid_type', 'amount must be an integer >= 1', amount);
      if (!Object.hasOwn(DELAY_UNITS, unit as string)) fail('unit', 'invalid_enum_value', 'unit must be minutes, hours or days', unit);
      else if (typeof amount === 'number' && amount * DELAY_UNITS[unit] > MAX_DELAY_SECONDS) fail('amount', 'too_big', 'a DELAY is at most 365 days', amount);
      break;
    }
    case 'WAIT_FOR_EVENT':
      if (!nonEmptyString(raw.eventName)) fail('eventName', 'required', 'eventName is required');
      if (raw.timeout !== undefined && raw.timeout !== null) {
        const t = raw.timeout;
        if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > MAX_DELAY_SECONDS) fail('timeout', 'invalid_type', 'timeout is a whole number of seconds, 1 to 365 days', t);
      }
      break;
    case 'CONDITION': {
      const fieldProblem = conditionFieldProblem(raw.field);
      if (fieldProblem) fail('field', 'invalid_field', fieldProblem, raw.field);
      if (typeof raw.operator !== 'string' || !(CONDITION_OPERATORS as readonly string[]).includes(raw.operator)) {
        fail('operator', 'invalid_enum_value', `operator must be one of ${CONDITION_OPERATORS.join(', ')}`, raw.operator);
      } else if (operatorNeedsValue(raw.operator) && (raw.value === undefined || raw.value === null)) {
        fail('value', 'required', `value is required with ${raw.operator}`);
      } else if (raw.value !== undefined && raw.value !== null && !['string', 'number', 'boolean'].includes(typeof raw.value)) {
        fail('value', 'invalid_type', 'value must be a string, number or boolean');
      }
      break;
    }
    case 'WEBHOOK': {
      let url: URL | null = null;
      try {
        url = typeof raw.url === 'string' ? new URL(raw.url.replace(/\{\{[^}]*\}\}/g, 'x')) : null;
      } catch {
        url = null;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) fail('url', 'invalid_string', 'url must be an http(s) URL', raw.url);
      const method = raw.method ?? 'POST';
      if (!(WEBHOOK_METHODS as readonly unknown[]).includes(method)) fail('method', 'invalid_enum_value', `method must be one of ${WEBHOOK_METHODS.join(', ')}`, method);
      config.method = method;
      if (raw.headers !== undefined) {
        if (!isObject(raw.headers) || Object.entries(raw.headers).some(([k, v]) => typeof v !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) || /[\r\n]/.test(v)))
          fail('headers', 'invalid_type', 'headers must be an object of header names to string values without CR/LF');
      }
      if (raw.body !== undefined && typeof raw.body !== 'string' && !isObject(raw.body)) fail('body', 'invalid_type', 'body must be a string or an object');
      // The strings the step renders are Liquid, checked as a template's are (syntax, huge literal ranges).
      for (const [key, value] of [['url', raw.url], ['headers', isObject(raw.headers) ? raw.headers : undefined], ['body', raw.body]] as const) {
        for (const [path, source] of liquidStrings(value, key)) {
          const problem = checkLiquidSyntax(source, textEngine);
          if (problem) fail(path, 'invalid_template', describeLiquidProblem(problem));
        }
      }
      break;
    }
    case 'UPDATE_CONTACT': {
      const action = raw.subscriptionAction ?? 'none';
      if (!(SUBSCRIPTION_ACTIONS as readonly unknown[]).includes(action)) fail('subscriptionAction', 'invalid_enum_value', 'subscriptionAction must be none, subscribe or unsubscribe', action);
      if (raw.updates !== undefined && !isObject(raw.updates)) fail('updates', 'invalid_type', 'updates must be an object');
      const hasUpdates = isObject(raw.updates) && Object.keys(raw.updates).length > 0;
      if (!hasUpdates && action === 'none') fail('', 'required', 'an UPDATE_CONTACT step needs updates or a subscriptionAction');
      break;
    }
    case 'EXIT':
      if (raw.reason !== undefined && raw.reason !== null && typeof raw.reason !== 'string') fail('reason', 'invalid_type', 'reason must be a string');
      break;
  }
  return { config, problems };
}

/** The strings of a JSON value that the WEBHOOK step renders (those with `{{` or `{%`), with their paths (`body.items.0`). */
function liquidStrings(value: unknown, path: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (typeof value === 'string') {
    if (value.includes('{{') || value.includes('{%')) out.push([path, value]);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => liquidStrings(v, `${path}.${i}`, out));
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) liquidStrings(v, `${path}.${k}`, out);
  }
  return out;
}

export function delaySeconds(config: Record<string, unknown>): number {
  return (config.amount as number) * DELAY_UNITS[config.unit as keyof typeof DELAY_UNITS];
}
