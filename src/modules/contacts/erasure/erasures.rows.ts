import type { ErasureStatus, ErasureStep } from './erasure-steps';

/** One erasure as `ErasuresRepository` reads it; `dto/erasure.response.ts` maps it to the API. */
export interface ErasureRow {
  id: string;
  contact_id: string;
  status: ErasureStatus;
  step: ErasureStep | null;
  requested_by_type: 'user' | 'key';
  requested_by_id: string;
  failure_reason: string | null;
  requested_at: Date | string;
  completed_at: Date | string | null;
  /** `requested_at` as PostgreSQL text: the list's keyset cursor. */
  requested_key: string;
}

/** Who asked for an erasure: a session's user, or the project's secret key (by its id). */
export interface ErasureRequester {
  type: 'user' | 'key';
  id: string;
}
