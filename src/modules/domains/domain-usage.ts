import type { UsageRegistry } from '../../platform/usage/usage.registry';

/** Templates and unsent campaigns whose sender uses `domain` or a subdomain, as their modules report them. */
export async function countDomainUsage(usage: UsageRegistry, projectId: string, domain: string): Promise<{ templates: number; campaigns: number }> {
  const refs = await usage.find(projectId, { kind: 'domain', domain });
  return { templates: refs.templates?.length ?? 0, campaigns: refs.campaigns.length };
}
