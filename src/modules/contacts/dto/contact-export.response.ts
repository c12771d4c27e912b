import { ApiProperty } from '@nestjs/swagger';
import type { SchemaObject } from '../../../platform/http/openapi-responses';
import { ContactResponse } from './contact.response';

// Sections owned by modules above contacts are named by their schema (their lists' item shapes), never imported.
const listOf = (schema: string, description: string, extra?: Record<string, SchemaObject>) =>
  ApiProperty({
    description,
    type: 'array',
    items: extra ? { allOf: [{ $ref: `#/components/schemas/${schema}` }, { type: 'object', properties: extra }] } : { $ref: `#/components/schemas/${schema}` },
  });

/** `GET /contacts/:id/export`: what the service holds about one contact (docs/personal-data.md). */
export class ContactExportResponse {
  @ApiProperty({ description: 'The contact, as `GET /contacts/:id` gives it', type: () => ContactResponse })
  contact!: ContactResponse;
  @listOf('TopicResponse', "Every topic of the project, with the contact's explicit choice (`choice`: true, false or null for none) and its effective membership (`member`)", {
    choice: { type: 'boolean', nullable: true },
    member: { type: 'boolean' },
  })
  topics!: unknown[];
  @listOf('EventResponse', 'Consent history, newest first: contact.subscribed, contact.unsubscribed, contact.confirmed (double opt-in), contact.snoozed, contact.topic.subscribed and contact.topic.unsubscribed events')
  consent!: unknown[];
  @listOf('EventResponse', "The contact's events, newest first, as `GET /events?contactId=` lists them")
  events!: unknown[];
  @listOf('EmailResponse', 'Emails to the contact, newest first, as `GET /v1/emails?contactId=` lists them, each with `content` and `contentExpiredAt` as `GET /v1/emails/:id` gives them', {
    content: { allOf: [{ $ref: '#/components/schemas/EmailContentResponse' }], nullable: true, description: "What is kept of its content; null once past the project's retention, or gone" },
    contentExpiredAt: { type: 'string', nullable: true, description: "When its content expired under the project's retention (ISO 8601); null while it is kept" },
  })
  emails!: unknown[];
  @listOf('ExecutionResponse', "The contact's workflow executions, newest first, as `GET /workflows/:id/executions` lists them")
  executions!: unknown[];
  @listOf('InboundMessageResponse', "Mail received from the contact (its contact or, for messages recorded without one, its address), newest first, as `GET /inbound/:id` gives each; the message's bytes are `GET /inbound/:id/raw`")
  inboundMessages!: unknown[];
  @ApiProperty({ description: 'When the export was made (ISO 8601)', type: String })
  exportedAt!: string;
}
