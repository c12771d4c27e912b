import { AppError, conflict, notFound, validationError } from '../../platform/http/app-error';

export const domainNotFound = () => notFound('Domain');

/** docs/decisions.md#general: 403 with code DOMAIN_NOT_VERIFIED (deliberately not Plunk's INTERNAL_SERVER_ERROR body code). */
export const domainNotVerified = (domain: string) =>
  new AppError(403, 'DOMAIN_NOT_VERIFIED', `The sender domain ${domain} is not a verified domain of this project`, {
    details: { domain },
    suggestion: 'Add the domain with POST /domains, publish its DNS records, then check it with GET /domains/:id/verify.',
  });

export const domainAlreadyClaimed = (domain: string) => conflict(`The domain ${domain} has already been added`, { details: { domain } });

export const domainInUse = (domain: string, usage: { templates: number; campaigns: number }) =>
  conflict(`The domain ${domain} is still used by ${usage.templates} template(s) and ${usage.campaigns} unsent campaign(s)`, {
    details: { domain, ...usage },
    suggestion: 'Change the sender of those templates and campaigns first.',
  });

export const invalidDomainName = (received: unknown) =>
  validationError([{ field: 'domain', message: 'domain must be a valid host name such as example.com', code: 'invalid_string', received }]);

/** SES refused or did not answer the identity registration; nothing was stored. */
export const sesRegistrationFailed = (domain: string, reason: string) =>
  new AppError(502, 'SES_ERROR', `Amazon SES could not register ${domain}: ${reason}`, {
    details: { domain },
    suggestion: 'Check the AWS credentials, region and SES permissions (ses:VerifyDomainDkim, ses:SetIdentityMailFromDomain), then retry.',
  });

/** SES refused or did not answer the identity's removal; the domain is kept, so the delete can be retried. */
export const sesRemovalFailed = (domain: string, reason: string) =>
  new AppError(502, 'SES_ERROR', `Amazon SES could not remove the identity ${domain}: ${reason}`, {
    details: { domain },
    suggestion: 'Check the AWS credentials, region and SES permissions (ses:DeleteIdentity), then retry the delete.',
  });

export const warmupCeilingBelowStart = (maxPerDay: number, startPerDay: number) =>
  validationError([
    { field: 'warmup.maxPerDay', message: `warmup.maxPerDay (${maxPerDay}) must be at least warmup.startPerDay (${startPerDay})`, code: 'too_small', received: maxPerDay },
  ]);
