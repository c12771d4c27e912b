import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { MailroomApi } from './api-client';
import { describeRefusedSend, type AudiencePreview, type CampaignSummary } from './send-refusal';
import { errorResult, guarded, jsonResult } from './tool-result';

const address = z.union([z.string(), z.object({ email: z.string().describe('Email address'), name: z.string().optional().describe('Display name') })]);
const customData = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('Custom contact fields to store, e.g. { "plan": "pro" }; null deletes a key; { "value": …, "persistent": false } is used for this call only');

interface Envelope<T> {
  success: true;
  data: T;
  message?: string;
}

/** The tools that change something: left out entirely in read-only mode. */
export function registerWriteTools(server: McpServer, api: MailroomApi): void {
  server.registerTool(
    'send_email',
    {
      title: 'Send an email',
      description:
        'Sends a transactional email now (POST /v1/send), from a template or from a subject and body; each recipient becomes or updates a contact. Returns `{ emails: [{ email: <email id>, contact: { id, email } }], skipped: [{ email, reason }], timestamp }`; the delivery, opens and clicks of each email then appear in get_activity (as `emailId`).',
      inputSchema: {
        to: z.union([address, z.array(address).min(1).max(50)]).describe('Recipient: an address, { email, name }, or a list of up to 50 of either'),
        template: z.string().optional().describe('Template id (UUID, from list_templates); its subject, body and sender are used unless given here'),
        subject: z.string().max(998).optional().describe('Subject line (Liquid, e.g. "Hi {{name}}"); required without a template'),
        body: z.string().optional().describe('Body (Liquid; HTML, or markdown with type "markdown"); required without a template'),
        type: z.enum(['html', 'markdown']).optional().describe('How `body` is written (default html)'),
        from: address.optional().describe("Sender on a verified domain, or { email, name }; defaults to the template's, then the project's default sender"),
        reply: z.string().optional().describe('Reply-To address'),
        data: customData,
        subscribed: z.boolean().optional().describe("Set the recipients' marketing subscription; omitted keeps it (new contacts start unsubscribed)"),
      },
      annotations: { title: 'Send an email', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) => guarded(async () => jsonResult((await api.request<Envelope<unknown>>({ method: 'POST', path: '/v1/send', body: args })).data)),
  );

  server.registerTool(
    'track_event',
    {
      title: 'Track an event',
      description:
        'Records a named event for a contact (POST /v1/track), creating the contact if needed; events can start workflows and feed segments. Returns `{ contact: <contact id>, event: <event id>, timestamp }`.',
      inputSchema: {
        email: z.string().describe("The contact's email address"),
        event: z.string().min(1).max(200).describe('Event name, e.g. "signed_up" (not a reserved name such as email.* or contact.subscribed)'),
        data: customData,
        subscribed: z.boolean().optional().describe('Set the contact\'s marketing subscription; omitted keeps it (new contacts start subscribed)'),
      },
      annotations: { title: 'Track an event', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => guarded(async () => jsonResult((await api.request<Envelope<unknown>>({ method: 'POST', path: '/v1/track', body: args })).data)),
  );

  server.registerTool(
    'update_contact',
    {
      title: 'Update a contact',
      description:
        "Changes a contact's email address, subscription or custom fields (PATCH /contacts/:id). `data` is merged: keys not sent keep their values, null deletes a key. Returns the updated contact.",
      inputSchema: {
        id: z.string().describe('Contact id (cnt_…), from find_contacts or get_contact'),
        email: z.string().optional().describe('New email address (must not belong to another contact)'),
        subscribed: z.boolean().optional().describe('Whether the contact receives marketing email'),
        data: customData,
      },
      annotations: { title: 'Update a contact', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id, ...changes }) => guarded(async () => jsonResult(await api.request({ method: 'PATCH', path: `/contacts/${encodeURIComponent(id)}`, body: changes }))),
  );

  server.registerTool(
    'create_campaign_draft',
    {
      title: 'Create a campaign draft',
      description:
        'Creates a campaign in DRAFT (POST /campaigns); nothing is sent until send_campaign is called with confirm: true. Returns the campaign (`id`, `name`, `status`, audience, …).',
      inputSchema: {
        name: z.string().describe('Internal name of the campaign'),
        subject: z.string().describe('Subject line (Liquid, e.g. "News for {{name}}")'),
        body: z.string().describe('HTML body (Liquid with the contact\'s fields, e.g. {{plan}})'),
        from: z.string().describe('Sender address on a verified domain of the project'),
        fromName: z.string().optional().describe('Sender display name'),
        replyTo: z.string().optional().describe('Reply-To address'),
        description: z.string().optional().describe('Internal note, never sent'),
        type: z.enum(['MARKETING', 'TRANSACTIONAL']).optional().describe('MARKETING (default: unsubscribed contacts are skipped) or TRANSACTIONAL'),
        audienceType: z.enum(['ALL', 'SEGMENT', 'FILTERED']).describe('ALL contacts, a SEGMENT (needs segmentId) or FILTERED (needs audienceCondition)'),
        segmentId: z.string().optional().describe('Segment id (UUID, from list_segments) when audienceType is SEGMENT'),
        audienceCondition: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('Filter tree when audienceType is FILTERED: { logic: "AND", groups: [{ filters: [{ field: "data.plan", operator: "equals", value: "pro" }] }] }'),
      },
      annotations: { title: 'Create a campaign draft', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => guarded(async () => jsonResult((await api.request<Envelope<unknown>>({ method: 'POST', path: '/campaigns', body: args })).data)),
  );

  server.registerTool(
    'send_campaign',
    {
      title: 'Send a campaign',
      description:
        'Sends a DRAFT or SCHEDULED campaign to its audience now, or schedules it (POST /campaigns/:id/send). Without `confirm: true` nothing is sent: the answer says what would be sent to how many recipients, to show the user before confirming. Returns `{ campaign: { id, name, status, scheduledFor }, message }`.',
      inputSchema: {
        id: z.string().describe('Campaign id (UUID), from create_campaign_draft or list_campaigns'),
        confirm: z.boolean().optional().describe('Must be true to send; only set it after the user approved this send'),
        scheduledFor: z.string().optional().describe('ISO 8601 date-time to send at instead of now'),
      },
      annotations: { title: 'Send a campaign', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    ({ id, confirm, scheduledFor }) =>
      guarded(async () => {
        const path = `/campaigns/${encodeURIComponent(id)}`;
        if (confirm !== true) {
          const campaign = await api.request<CampaignSummary>({ method: 'GET', path });
          const preview = await api.request<AudiencePreview>({ method: 'GET', path: `${path}/audience-preview` });
          return errorResult(describeRefusedSend(campaign, preview, scheduledFor));
        }
        const sent = await api.request<Envelope<unknown>>({ method: 'POST', path: `${path}/send`, body: scheduledFor === undefined ? {} : { scheduledFor } });
        return jsonResult({ campaign: sent.data, message: sent.message });
      }),
  );
}
