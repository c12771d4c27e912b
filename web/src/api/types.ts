/** Wire shapes of the API (api-spec.md + decisions.md). Timestamps are ISO 8601 strings. */

export interface User {
  id: string;
  email: string;
  emailVerified: boolean;
  createdAt: string;
}

export type Role = 'OWNER' | 'ADMIN' | 'MEMBER';
export type TrackingMode = 'ENABLED' | 'DISABLED' | 'MARKETING_ONLY';

export interface Project {
  id: string;
  name: string;
  publicPrefix: string;
  secretPrefix: string;
  disabled: boolean;
  disabledReason: string | null;
  tracking: TrackingMode;
  language: string;
  /** Sender of sends that name none (neither `from` nor a template's sender). */
  defaultFrom: { email: string; name: string | null } | null;
  role?: Role;
  createdAt: string;
  updatedAt: string;
}

/** What PATCH /users/@me/projects/:id changes; each is optional, and `defaultFrom: null` clears the sender. */
export type ProjectSettings = Partial<Pick<Project, 'name' | 'tracking' | 'language' | 'defaultFrom'>>;

/** Project creation and key rotation answer the keys in full, once. */
export interface ProjectWithKeys extends Project {
  public: string;
  secret: string;
  webhookSecret?: string;
}

export interface Member {
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
}

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

export interface Contact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface ContactEvent {
  id: string;
  name: string;
  contactId?: string;
  data?: Record<string, unknown> | null;
  createdAt: string;
}

export interface FieldDescriptor {
  field: string;
  type: 'string' | 'number' | 'boolean' | 'date';
  isCustom: boolean;
  coverage: number;
}

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface ImportJob {
  jobId: string;
  status: JobStatus;
  totalRows: number;
  processedRows: number;
  imported: number;
  updated: number;
  skipped: number;
  errors: { row: number; email: string; reason: string }[];
  failureReason?: string | null;
}

export interface BulkJob {
  jobId: string;
  operation: string;
  status: JobStatus;
  progress: number;
  totalRequested: number;
  successCount: number;
  unchangedCount: number;
  failureCount: number;
  errors: { contactId: string; error: string }[];
}

export type EmailType = 'TRANSACTIONAL' | 'MARKETING' | 'HEADLESS';

export interface Template {
  id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  type: EmailType;
  projectId: string;
  createdAt: string;
  updatedAt: string;
}

export interface DnsRecord {
  type: string;
  name: string;
  value: string;
  priority?: number;
  required: boolean;
  purpose: string;
  status: 'pending' | 'verified';
}

export interface Domain {
  id: string;
  domain: string;
  status: 'pending' | 'verified';
  verified: boolean;
  records: DnsRecord[];
  createdAt: string;
  verifiedAt: string | null;
}

export interface PublicConfig {
  signupEnabled: boolean;
  billing: boolean;
  transport: string;
  tracking: boolean;
  uploads: boolean;
  domainVerification?: string;
  publicUrl?: string;
}

export interface SetupState {
  hasDomain: boolean;
  hasVerifiedDomain: boolean;
  hasContacts: boolean;
  hasTemplates: boolean;
  hasSentEmail: boolean;
  hasEvents: boolean;
  hasTeamMembers: boolean;
  completed: boolean;
  [key: string]: boolean;
}
