import { openApiSchemaOf } from '../../../platform/http/declared-body';
import type { StepType } from '../entities/workflow-step.entity';
import { checkStepConfig, STEP_CONFIG_SCHEMA, STEP_CONFIGS, STORED_STEP_CONFIG_SCHEMA } from './step-config';

const types = Object.keys(STEP_CONFIGS) as StepType[];
const items = (type: StepType, config: unknown) => checkStepConfig(type, config).problems.map(({ field, code, message, received }) => ({ field, code, message, received }));

/** A step's config is declared once (STEP_CONFIGS): the keys the checker accepts are the ones the document shows. */
describe('step config: one declaration for the checker and the OpenAPI document', () => {
  it.each(types)('%s: every documented key is accepted, any other refused naming config.<key>', (type) => {
    const documented = Object.keys(openApiSchemaOf(STEP_CONFIGS[type]).properties ?? {});
    const raw = Object.fromEntries([...documented.map((key) => [key, 'x']), ['notAKey', 1]]);
    const unrecognized = checkStepConfig(type, raw).problems.filter((p) => p.code === 'unrecognized_keys');
    expect(unrecognized).toEqual([{ field: 'config.notAKey', code: 'unrecognized_keys', message: `notAKey is not part of a ${type} step's config`, received: undefined }]);
  });

  it('the request schema offers the addable types, the response schema every type', () => {
    const titles = (schema: { oneOf?: Array<{ title?: string }> }) => (schema.oneOf ?? []).map((s) => s.title);
    expect(titles(STEP_CONFIG_SCHEMA as never)).toEqual(['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT']);
    expect(titles(STORED_STEP_CONFIG_SCHEMA as never)).toEqual(types);
  });

  it('emits each type as a closed object with its required keys and value shapes', () => {
    expect(openApiSchemaOf(STEP_CONFIGS.DELAY)).toMatchObject({
      title: 'DELAY',
      type: 'object',
      required: ['amount', 'unit'],
      additionalProperties: false,
      properties: { amount: { type: 'integer', minimum: 1 }, unit: { type: 'string', enum: ['minutes', 'hours', 'days'] } },
    });
    const webhook = openApiSchemaOf(STEP_CONFIGS.WEBHOOK);
    expect(webhook).toMatchObject({
      required: ['url'],
      properties: {
        url: { type: 'string', format: 'uri' },
        method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        body: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] },
      },
    });
    expect(openApiSchemaOf(STEP_CONFIGS.CONDITION).properties?.value).toMatchObject({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] });
    expect(openApiSchemaOf(STEP_CONFIGS.WAIT_FOR_EVENT).properties?.timeout).toMatchObject({ type: 'integer', minimum: 1, maximum: 31_536_000, nullable: true });
    expect(openApiSchemaOf(STEP_CONFIGS.UPDATE_CONTACT).required).toBeUndefined();
  });
});

describe('step config: 422 items', () => {
  it('names each bad field with its code, message and received value', () => {
    expect(items('EXIT', 'nope')).toEqual([{ field: 'config', code: 'invalid_type', message: 'config must be an object', received: undefined }]);
    expect(items('SEND_EMAIL', {})).toEqual([{ field: 'config.templateId', code: 'invalid_string', message: 'templateId must be the UUID of a template of this project', received: undefined }]);
    expect(items('DELAY', { amount: 0, unit: 'weeks' })).toEqual([
      { field: 'config.amount', code: 'invalid_type', message: 'amount must be an integer >= 1', received: 0 },
      { field: 'config.unit', code: 'invalid_enum_value', message: 'unit must be minutes, hours or days', received: 'weeks' },
    ]);
    expect(items('DELAY', { amount: 366, unit: 'days' })).toEqual([{ field: 'config.amount', code: 'too_big', message: 'a DELAY is at most 365 days', received: 366 }]);
    expect(items('WAIT_FOR_EVENT', { eventName: ' ', timeout: 1.5 })).toEqual([
      { field: 'config.eventName', code: 'required', message: 'eventName is required', received: undefined },
      { field: 'config.timeout', code: 'invalid_type', message: 'timeout is a whole number of seconds, 1 to 365 days', received: 1.5 },
    ]);
    expect(items('CONDITION', { field: 'segment.x', operator: 'within' })).toEqual([
      { field: 'config.field', code: 'invalid_field', message: 'field must be contact.email, contact.subscribed, data.<path>, event.<key> or workflow.<key>', received: 'segment.x' },
      { field: 'config.operator', code: 'invalid_enum_value', message: expect.stringMatching(/^operator must be one of equals, notEquals, /), received: 'within' },
    ]);
    expect(items('CONDITION', { field: 7, operator: 'equals' })).toEqual([
      { field: 'config.field', code: 'invalid_field', message: 'field is required', received: 7 },
      { field: 'config.value', code: 'required', message: 'value is required with equals', received: undefined },
    ]);
    expect(items('CONDITION', { field: 'data.a', operator: 'equals', value: { a: 1 } })).toEqual([
      { field: 'config.value', code: 'invalid_type', message: 'value must be a string, number or boolean', received: undefined },
    ]);
    expect(items('WEBHOOK', { url: 'ftp://x', method: 'TRACE', headers: { 'X A': 'b' }, body: 5 })).toEqual([
      { field: 'config.url', code: 'invalid_string', message: 'url must be an http(s) URL', received: 'ftp://x' },
      { field: 'config.method', code: 'invalid_enum_value', message: 'method must be one of GET, POST, PUT, PATCH, DELETE', received: 'TRACE' },
      { field: 'config.headers', code: 'invalid_type', message: 'headers must be an object of header names to string values without CR/LF', received: undefined },
      { field: 'config.body', code: 'invalid_type', message: 'body must be a string or an object', received: undefined },
    ]);
    expect(items('UPDATE_CONTACT', { updates: [], subscriptionAction: 'maybe' })).toEqual([
      { field: 'config.updates', code: 'invalid_type', message: 'updates must be an object', received: undefined },
      { field: 'config.subscriptionAction', code: 'invalid_enum_value', message: 'subscriptionAction must be none, subscribe or unsubscribe', received: 'maybe' },
    ]);
    expect(items('UPDATE_CONTACT', {})).toEqual([{ field: 'config', code: 'required', message: 'an UPDATE_CONTACT step needs updates or a subscriptionAction', received: undefined }]);
    expect(items('EXIT', { reason: 5 })).toEqual([{ field: 'config.reason', code: 'invalid_type', message: 'reason must be a string', received: undefined }]);
  });

  it("reports a WEBHOOK's bad Liquid at the string's path, through the same items", () => {
    const problems = items('WEBHOOK', { url: 'https://e.com/{% if x %}', headers: { 'X-A': '{{ a | nosuchfilter }}' }, body: { items: ['ok', '{{ x'] } });
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['config.url', 'invalid_template'],
      ['config.headers.X-A', 'invalid_template'],
      ['config.body.items.1', 'invalid_template'],
    ]);
  });

  it('keeps only the declared keys, nulls as sent, and the default method', () => {
    expect(checkStepConfig('WAIT_FOR_EVENT', { eventName: 'x', timeout: null })).toEqual({ config: { eventName: 'x', timeout: null }, problems: [] });
    expect(checkStepConfig('WEBHOOK', { url: 'https://e.com', method: null })).toEqual({ config: { url: 'https://e.com', method: 'POST' }, problems: [] });
  });
});
