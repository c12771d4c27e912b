import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { MailroomApi } from './api-client';
import { errorResult, guarded, jsonResult } from './tool-result';

/** Activity types `GET /activity` filters on (src/modules/activity/activity.types.ts). */
const ACTIVITY_TYPES = ['email.sent', 'email.delivery', 'email.open', 'email.click', 'email.bounce', 'email.complaint', 'email.received', 'event'] as const;
const TEMPLATE_TYPES = ['TRANSACTIONAL', 'MARKETING', 'HEADLESS'] as const;
const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] as const;

const READ = { readOnlyHint: true, openWorldHint: false } as const;
const limit = z.number().int().min(1).max(100).optional().describe('Page size, 1-100 (default 20)');
const cursor = z.string().optional().describe('The `cursor` of the previous page, to read the next one (absent or null on the last page)');
const page = z.number().int().min(1).optional().describe('Page number, from 1 (default 1)');
const pageSize = z.number().int().min(1).max(100).optional().describe('Items per page, 1-100 (default 20)');

interface ContactPage {
  data: Array<{ id: string; email: string }>;
}

/** The tools that only read: registered in every mode. */
export function registerReadTools(server: McpServer, api: MailroomApi): void {
  server.registerTool(
    'find_contacts',
    {
      title: 'Find contacts',
      description:
        "Searches the project's contacts (newest first). Returns a cursor page `{ data: [contact], cursor, hasMore, total }`; each contact has `id` (cnt_…), `email`, `subscribed` (receives marketing email), `data` (custom fields) and timestamps. `total` is counted on the first page only.",
      inputSchema: {
        search: z.string().max(320).optional().describe('Case-insensitive part of the email address, e.g. "@acme.com"'),
        subscribed: z.boolean().optional().describe('Only subscribed (true) or unsubscribed (false) contacts; omit for both'),
        limit,
        cursor,
      },
      annotations: { title: 'Find contacts', ...READ },
    },
    (args) => guarded(async () => jsonResult(await api.request({ method: 'GET', path: '/contacts', query: args }))),
  );

  server.registerTool(
    'get_contact',
    {
      title: 'Get a contact',
      description:
        'Reads one contact by its id (cnt_…) or by its exact email address. Returns the contact: `id`, `email`, `subscribed`, `data` (custom fields), `createdAt`, `updatedAt`.',
      inputSchema: {
        id: z.string().optional().describe('Contact id (cnt_…), as find_contacts returns it'),
        email: z.string().optional().describe('Exact email address of the contact (used when no id is given)'),
      },
      annotations: { title: 'Get a contact', ...READ },
    },
    ({ id, email }) =>
      guarded(async () => {
        if (id) return jsonResult(await api.request({ method: 'GET', path: `/contacts/${encodeURIComponent(id)}` }));
        if (!email) return errorResult('Give either `id` (cnt_…) or `email`.');
        const wanted = email.trim().toLowerCase();
        const found = await api.request<ContactPage>({ method: 'GET', path: '/contacts', query: { search: wanted, limit: 100 } });
        const contact = found.data.find((c) => c.email.toLowerCase() === wanted);
        return contact ? jsonResult(contact) : errorResult(`No contact has the email address ${email}.`);
      }),
  );

  server.registerTool(
    'list_templates',
    {
      title: 'List templates',
      description:
        'Lists the email templates (newest first). Returns an offset page `{ data: [template], page, pageSize, total, totalPages }`; each template has `id` (use it as `template` in send_email), `name`, `description`, `subject`, `body` (HTML with {{variables}}), `from`, `type`.',
      inputSchema: {
        search: z.string().max(200).optional().describe('Case-insensitive text in the name, description or subject'),
        type: z.enum(TEMPLATE_TYPES).optional().describe('Only templates of this type'),
        page,
        pageSize,
      },
      annotations: { title: 'List templates', ...READ },
    },
    (args) => guarded(async () => jsonResult(await api.request({ method: 'GET', path: '/templates', query: args }))),
  );

  server.registerTool(
    'list_segments',
    {
      title: 'List segments',
      description:
        'Lists every segment of the project (newest first, not paged). Returns `{ data: [segment] }`; each segment has `id` (use it as `segmentId` of a campaign), `name`, `description`, `type` (DYNAMIC: a filter `condition`; STATIC: a member list) and `memberCount`.',
      inputSchema: {},
      annotations: { title: 'List segments', ...READ },
    },
    () => guarded(async () => jsonResult({ data: await api.request({ method: 'GET', path: '/segments' }) })),
  );

  server.registerTool(
    'list_campaigns',
    {
      title: 'List campaigns',
      description:
        'Lists campaigns (newest first). Returns an offset page `{ data: [campaign], page, pageSize, total, totalPages }`; each campaign has `id`, `name`, `subject`, `status` (DRAFT, SCHEDULED, SENDING, SENT, CANCELLED), its audience (`audienceType`, `segmentId`), `scheduledFor`, `sentAt` and its counters.',
      inputSchema: {
        status: z.enum(CAMPAIGN_STATUSES).optional().describe('Only campaigns in this status'),
        search: z.string().max(200).optional().describe('Case-insensitive text in the name, subject or sender address'),
        page,
        pageSize,
      },
      annotations: { title: 'List campaigns', ...READ },
    },
    (args) => guarded(async () => jsonResult(await api.request({ method: 'GET', path: '/campaigns', query: args }))),
  );

  server.registerTool(
    'get_campaign_stats',
    {
      title: 'Get campaign statistics',
      description:
        "Reads a campaign and its statistics. Returns `{ campaign: { id, name, subject, status, scheduledFor, sentAt }, stats }`; `stats` has totalRecipients, sentCount, deliveredCount, openedCount, clickedCount, bouncedCount, complainedCount, unsubscribedCount, skippedCount (and `skipped` by reason), failedCount and uncertainCount (all 0 before sending starts).",
      inputSchema: { id: z.string().describe('Campaign id (UUID), as list_campaigns returns it') },
      annotations: { title: 'Get campaign statistics', ...READ },
    },
    ({ id }) =>
      guarded(async () => {
        const path = `/campaigns/${encodeURIComponent(id)}`;
        const campaign = await api.request<Record<string, unknown>>({ method: 'GET', path });
        const stats = await api.request({ method: 'GET', path: `${path}/stats` });
        const { name, subject, status, scheduledFor, sentAt } = campaign;
        return jsonResult({ campaign: { id: campaign.id, name, subject, status, scheduledFor, sentAt }, stats });
      }),
  );

  server.registerTool(
    'get_activity',
    {
      title: 'Read activity',
      description:
        "Reads the project's activity feed, newest first: emails sent, delivered, opened, clicked, bounced, complained about or received, and tracked events. Returns a cursor page `{ data: [item], cursor, hasMore, total }`; each item has its `type`, time, contact and the email or event it is about.",
      inputSchema: {
        types: z.array(z.enum(ACTIVITY_TYPES)).min(1).optional().describe('Only these kinds of activity ("event" is every tracked event); omit for all'),
        contactId: z.string().optional().describe("Only this contact's activity (contact id, cnt_…)"),
        campaignId: z.string().optional().describe("Only this campaign's emails (campaign id)"),
        limit,
        cursor,
      },
      annotations: { title: 'Read activity', ...READ },
    },
    ({ types, ...rest }) => guarded(async () => jsonResult(await api.request({ method: 'GET', path: '/activity', query: { ...rest, types: types?.join(',') } }))),
  );
}
