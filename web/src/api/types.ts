import type { components, operations } from './schema';

/**
 * Names for the wire shapes the dashboard uses, all generated from the service's OpenAPI
 * document (`schema.d.ts`). Timestamps are ISO 8601 strings.
 */
type Schemas = components['schemas'];
/** The JSON answer of an operation's 200 (or 201). */
export type Answer<Op extends keyof operations> = operations[Op]['responses'] extends infer R
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : never
  : never;

export type User = Schemas['UserResponse'];
export type Role = Schemas['MemberResponse']['role'];
export type TrackingMode = NonNullable<Schemas['UpdateProjectDto']['tracking']>;
export type Project = Schemas['ProjectResponse'];
/** What PATCH /users/@me/projects/:id changes; each is optional, and `defaultFrom: null` clears the sender. */
export type ProjectSettings = Schemas['UpdateProjectDto'];
/** Project creation and key rotation answer the keys in full, once. */
export type ProjectWithKeys = Project & { public: string; secret: string };
export type Member = Schemas['MemberResponse'];
/** The roles a member can be given (there is one owner, the project's creator). */
export type AssignableRole = Schemas['UpdateMemberDto']['role'];

export interface CursorList<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

export interface OffsetList<T> {
  data: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export type Contact = Schemas['ContactResponse'];
export type ContactEvent = Schemas['EventResponse'];
export type FieldDescriptor = NonNullable<Answer<'ContactFieldsController_list'>['fields']>[number];
export type ImportJobResponse = Schemas['ImportJobResponse'];
export type BulkJob = Schemas['BulkJobResponse'];
export type ContactExportJob = Schemas['ContactExportJobResponse'];
export type ContactExportRequest = Schemas['CreateContactExportDto'];
export type EmailType = NonNullable<Schemas['CreateTemplateDto']['type']>;
/** The document types `type` only as a string; the service answers one of EmailType's values. */
export type Template = Omit<Schemas['TemplateResponse'], 'type'> & { type: EmailType };
export type DnsRecord = Schemas['DomainRecordResponse'];
export type Domain = Schemas['DomainResponse'];
export type PublicConfig = Answer<'PublicConfigController_get'>;
export type SetupState = Answer<'MembersController_getSetupState'>;
