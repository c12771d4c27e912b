import { AppError, badRequest, notFound } from '../../../platform/http/app-error';
import type { CsvRejection } from './csv/csv-file';

/** Largest accepted upload (spec section 8); multer enforces it, the filter renders 413. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

const CSV_REJECTION_MESSAGES: Record<CsvRejection, string> = {
  empty: 'The file is empty',
  binary: 'The file is not a CSV file (it contains binary data)',
  encoding: 'The file is not valid UTF-8 text',
  no_header: 'The file has no header row',
  no_email_column: 'The header row has no email column',
};

export const importJobNotFound = () => notFound('Import job');

export const missingImportFile = () =>
  badRequest('Upload the CSV file in the multipart form part "file"', { suggestion: 'curl -F file=@contacts.csv …/contacts/import' });

export const invalidCsv = (reason: CsvRejection): AppError =>
  badRequest(CSV_REJECTION_MESSAGES[reason], {
    details: { reason },
    suggestion: 'Send a comma-separated UTF-8 file whose first row is a header naming an email column.',
  });
