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
  @listOf('EmailResponse', 'Emails to the contact, newest first, as `GET /v1/emails?contactId=` lists them, each with `content`: what is kept of it (null once gone)', {
    content: {
      type: 'object',
      nullable: true,
      description: 'The sources the email was built from and the values it was rendered with; attachments are listed without their bytes',
      properties: {
        subject: { type: 'string' },
        body: { type: 'string', description: 'HTML (or markdown) with Liquid, as sent to /v1/send or written in the template or campaign' },
        text: { type: 'string', nullable: true },
        fromName: { type: 'string', nullable: true },
        replyTo: { type: 'string', nullable: true },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        attachments: { type: 'array', items: { type: 'object', properties: { filename: { type: 'string' }, contentType: { type: 'string', nullable: true }, disposition: { type: 'string' }, size: { type: 'integer', description: 'Bytes, decoded' } } } },
        variables: { type: 'object', nullable: true, additionalProperties: true, description: 'The values Liquid read (null: the contact’s data when it was sent)' },
      },
    },
  })
  emails!: unknown[];
  @listOf('ExecutionResponse', "The contact's workflow executions, newest first, as `GET /workflows/:id/executions` lists them")
  executions!: unknown[];
  @listOf('InboundMessageResponse', "Mail received from the contact (its contact or, for messages recorded without one, its address), newest first, as `GET /inbound/:id` gives each; the message's bytes are `GET /inbound/:id/raw`")
  inboundMessages!: unknown[];
  @ApiProperty({ description: 'When the export was made (ISO 8601)', type: String })
  exportedAt!: string;
}
