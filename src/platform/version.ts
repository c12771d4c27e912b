import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './database/project-root';

/** The service's version (package.json), read once: what it tells the outside world it is (the webhooks' `user-agent`). */
export const APP_VERSION: string = (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
