/** The subdomain of a sending domain that receives bounces (`bounces.example.com`); its MX points at `INBOUND_MX_HOST`. */
export const BOUNCE_SUBDOMAIN = 'bounces';

export const bounceDomainOf = (domain: string): string => `${BOUNCE_SUBDOMAIN}.${domain}`;
