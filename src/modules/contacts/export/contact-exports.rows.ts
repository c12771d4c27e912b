/** Persisted in contact_exports.format. */
export type ContactExportFormat = 'csv' | 'ndjson';
/** Persisted in contact_exports.status. */
export type ContactExportStatus = 'queued' | 'running' | 'completed' | 'failed';
/** Who an export selects, as requested (contact_exports.selection): every contact (`{}`), a segment's members or a filter tree. */
export interface ContactExportSelection {
  segmentId?: string;
  filter?: unknown;
}

/** One export as `ContactExportsRepository` reads it; `toContactExportJobResponse` maps it to the API. */
export interface ContactExportRow {
  id: string;
  format: ContactExportFormat;
  status: ContactExportStatus;
  attempt: number;
  row_count: number;
  failure_reason: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}

/** A run of an export, as `start` hands it to the runner. */
export interface ContactExportRun {
  format: ContactExportFormat;
  selection: ContactExportSelection;
  attempt: number;
}
