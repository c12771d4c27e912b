import { ImportJobsRepository } from './import-jobs.repository';
import { ImportRunner } from './import-runner';
import { ImportProcessor } from '../worker/import.processor';
import { ImportService } from './import.service';

export { ImportController } from './import.controller';

/** CSV import's providers, registered by ContactsModule. */
export const IMPORT_PROVIDERS = [ImportJobsRepository, ImportService, ImportRunner, ImportProcessor];
