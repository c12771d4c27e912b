import type { AppConfig } from '../../config/config';

/**
 * The one rule for background work (queue workers, scheduled jobs, the event outbox): it runs in
 * processes whose ROLE is `worker` or `all`, never in `api` processes.
 */
export function runsOnWorkers(config: Pick<AppConfig, 'role'>): boolean {
  return config.role !== 'api';
}
