import type { SchemaObject } from '../../../platform/http/openapi-responses';
import { BODY_TYPES, SEND_LIMITS } from './send-request';

const address = (what: string): SchemaObject => ({
  oneOf: [
    { type: 'string', format: 'email', description: `${what} address`, example: 'ann@example.com' },
    {
      type: 'object',
      required: ['email'],
      properties: { email: { type: 'string', format: 'email', description: `${what} address` }, name: { type: 'string', maxLength: SEND_LIMITS.displayName, description: 'Display name' } },
    },
  ],
});

/**
 * `POST /v1/send` body for the OpenAPI document. The body is parsed by hand (send-request.ts:
 * `to` and `from` take several shapes, which class-validator DTOs cannot express), so its
 * schema is written here, beside the parser and its limits.
 */
export const SEND_REQUEST_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['to'],
  description: 'Either `template` (a template id) or `subject` and `body`. Unknown fields are refused when they look like a misspelling (e.g. `templateId`).',
  properties: {
    to: {
      description: `Recipient(s): an address, \`{ email, name }\`, or an array of up to ${SEND_LIMITS.recipients} of them. Each becomes (or updates) a contact; a recipient's \`name\` renders as \`{{name}}\` unless \`data\` sets \`name\`.`,
      oneOf: [address('Recipient'), { type: 'array', maxItems: SEND_LIMITS.recipients, items: address('Recipient') }],
    },
    template: { type: 'string', format: 'uuid', description: 'Template id (UUID) to render; its subject, body and sender are used unless given here. The field is `template`, not `templateId`.' },
    subject: { type: 'string', maxLength: SEND_LIMITS.subject, description: 'Subject (Liquid template); required without `template`' },
    body: { type: 'string', description: 'Body (Liquid template), HTML or markdown as `type` says; required without `template`' },
    type: {
      type: 'string',
      enum: [...BODY_TYPES],
      default: 'html',
      description: "How this request's `body` is written: html (default, sent as given) or markdown (rendered with Liquid, then converted to HTML); a template's body is HTML. Plunk's field",
    },
    from: {
      ...address('Sender'),
      description: "Sender: an address on a verified domain, or `{ email, name }`; defaults to the template's sender, then to the project's `defaultFrom`",
    },
    name: { type: 'string', maxLength: SEND_LIMITS.displayName, description: 'Deprecated: sender display name, used when `from` has no name' },
    reply: { type: 'string', format: 'email', description: 'Reply-To address' },
    data: {
      type: 'object',
      additionalProperties: true,
      description: 'Template variables, stored on the contact; `{ "value": …, "persistent": false }` uses a value for this email only',
    },
    subscribed: { type: 'boolean', description: 'Sets the subscription of the recipients (contacts)' },
    headers: {
      type: 'object',
      maxProperties: SEND_LIMITS.headers,
      additionalProperties: { type: 'string', maxLength: SEND_LIMITS.headerValue },
      description: 'Extra message headers (From, To, Subject, Message-ID and MIME headers are reserved)',
    },
    attachments: {
      type: 'array',
      maxItems: SEND_LIMITS.attachments,
      description: `Files, at most ${SEND_LIMITS.attachmentBytes / 1024 / 1024} MB decoded in total`,
      items: {
        type: 'object',
        required: ['filename', 'content'],
        properties: {
          filename: { type: 'string', maxLength: 255, description: 'File name shown to the recipient' },
          content: { type: 'string', format: 'byte', description: 'File content, base64' },
          contentType: { type: 'string', description: 'MIME type, e.g. application/pdf (guessed from the filename when absent)' },
          disposition: { type: 'string', enum: ['attachment', 'inline'], description: 'attachment (default) or inline (an image referenced from the body)' },
          contentId: { type: 'string', description: 'For inline images: reference it in the body as cid:<contentId>' },
        },
      },
    },
    tracking: { type: 'boolean', description: "Open and click tracking for this email (defaults to the project's setting)" },
  },
};
