import type { ApiPropertyOptions } from '@nestjs/swagger';
import type { SchemaObject } from '../../../platform/http/openapi-responses';
import type { StepType } from '../entities/workflow-step.entity';
import { CONDITION_OPERATORS } from '../graph/condition';
import { ADDABLE_STEP_TYPES, DELAY_UNITS, MAX_DELAY_SECONDS, SUBSCRIPTION_ACTIONS, WEBHOOK_METHODS } from '../graph/step-config';

/**
 * A step's `config` for the OpenAPI document, one shape per step type. Configs are checked by
 * hand against the step's type (graph/step-config.ts: unknown keys and bad values are a 422
 * naming `config.<key>`), so the shapes are written here beside the DTOs, from its constants.
 */
const CONFIGS: Record<StepType, SchemaObject> = {
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

const configOf = (types: readonly StepType[], description: string): ApiPropertyOptions => ({ description, oneOf: types.map((type) => CONFIGS[type]) });

/** Request: the config of a step a client adds or edits. */
export const STEP_CONFIG_SCHEMA = configOf(ADDABLE_STEP_TYPES, "Settings of the step; the shape depends on the step's type (only that type's keys are accepted)");

/** Response: any step's config, the entry TRIGGER step's included. */
export const STORED_STEP_CONFIG_SCHEMA = configOf(Object.keys(CONFIGS) as StepType[], "Settings of the step; the shape depends on the step's type");

/** A step's `position`: the editor's, never read by the service. */
export const STEP_POSITION: ApiPropertyOptions = {
  description: 'Where the graph editor draws the step, e.g. {"x": 120, "y": 80}; stored as sent, never read by the service',
  type: 'object',
  additionalProperties: true,
};
