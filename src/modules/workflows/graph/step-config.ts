import type { FieldError } from '../../../platform/http/app-error';
import type { StepType } from '../entities/workflow-step.entity';
import { CONDITION_OPERATORS, conditionFieldProblem, operatorNeedsValue } from './condition';
import { isUuid } from '../../../platform/http/parse-uuid.pipe';
import { checkLiquidSyntax, textEngine } from '../../templates/rendering/liquid-engine';

export const DELAY_UNITS = { minutes: 60, hours: 3600, days: 86_400 } as const;
export const MAX_DELAY_SECONDS = 365 * 86_400;
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const SUBSCRIPTION_ACTIONS = ['none', 'subscribe', 'unsubscribe'] as const;

/** The step types a client may add (TRIGGER is created with the workflow). */
export const ADDABLE_STEP_TYPES: StepType[] = ['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT'];

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
  const allowed: Record<StepType, string[]> = {
    TRIGGER: ['eventName'],
    SEND_EMAIL: ['templateId'],
    DELAY: ['amount', 'unit'],
    WAIT_FOR_EVENT: ['eventName', 'timeout'],
    CONDITION: ['field', 'operator', 'value'],
    WEBHOOK: ['url', 'method', 'headers', 'body'],
    UPDATE_CONTACT: ['updates', 'subscriptionAction'],
    EXIT: ['reason'],
  };
  for (const key of Object.keys(raw)) if (!allowed[type].includes(key)) fail(key, 'unrecognized_keys', `${key} is not part of a ${type} step's config`);
  const config: Record<string, unknown> = {};
  for (const key of allowed[type]) if (raw[key] !== undefined) config[key] = raw[key];

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
          if (problem) fail(path, 'invalid_template', `${problem.tooLarge ? 'Template loops too large' : 'Invalid template syntax'}${problem.line ? ` on line ${problem.line}` : ''}: ${problem.message}`);
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
