import type { AppConfig } from '../../../config/config';
import { instrumentHtml, isTrackableUrl } from './html-instrument';
import { clickPath, openPixelPath, OWN_PATH_PREFIXES } from './tracking-links';

export interface InstrumentOptions {
  emailId: string;
  projectId: string;
  opens: boolean;
  clicks: boolean;
}

/**
 * Wraps http(s) links in signed click redirects and appends the open pixel, as asked. A pure
 * function: the pipeline calls it while it builds a message (no dependency on this module's services).
 */
export function instrumentTracking(config: Pick<AppConfig, 'publicUrl' | 'appSecret'>, html: string, options: InstrumentOptions): string {
  if (!options.opens && !options.clicks) return html;
  const base = config.publicUrl;
  const secret = config.appSecret;
  const isOwnLink = (href: string) => OWN_PATH_PREFIXES.some((prefix) => href.startsWith(base + prefix));
  return instrumentHtml(html, {
    rewriteLink: options.clicks ? (href) => (isTrackableUrl(href) && !isOwnLink(href) ? base + clickPath(secret, options.emailId, href) : null) : undefined,
    beforeBodyEnd: options.opens
      ? `<img src="${base}${openPixelPath(secret, options.emailId)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0" />`
      : undefined,
  });
}
