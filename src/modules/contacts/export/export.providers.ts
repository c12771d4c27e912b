import { join } from 'node:path';
import type { AppConfig } from '../../../config/config';
import { APP_CONFIG } from '../../../config/config.module';
import { ContactExportProcessor } from '../worker/contact-export.processor';
import { ContactExportPurge } from '../worker/contact-export-purge';
import { ContactExportRunner } from './contact-export-runner';
import { ContactExportsRepository } from './contact-exports.repository';
import { ContactExportsService } from './contact-exports.service';
import { ContactSelections } from './contact-selections';
import { ExportFiles } from './export-files';

export { ContactExportsController } from './contact-exports.controller';

/** Bulk exports' providers, registered by ContactsModule; the files are under `$DATA_DIR/exports`. */
export const EXPORT_PROVIDERS = [
  ContactExportsRepository,
  ContactExportsService,
  ContactExportRunner,
  ContactExportProcessor,
  ContactExportPurge,
  ContactSelections,
  { provide: ExportFiles, useFactory: (config: AppConfig) => new ExportFiles(join(config.dataDir, 'exports')), inject: [APP_CONFIG] },
];
