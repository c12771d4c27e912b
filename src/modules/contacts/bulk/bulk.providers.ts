import { BulkJobsRepository } from './bulk-jobs.repository';
import { BulkRunner } from './bulk-runner';
import { BulkProcessor } from '../worker/bulk.processor';
import { BulkService } from './bulk.service';

export { BulkController } from './bulk.controller';

/** Bulk jobs' providers, registered by ContactsModule. */
export const BULK_PROVIDERS = [BulkJobsRepository, BulkService, BulkRunner, BulkProcessor];
