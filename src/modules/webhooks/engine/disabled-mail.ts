import escapeHtml from 'escape-html';
import type { SystemMessage } from '../../../platform/mail/system-mailer';

/** To a project's OWNER or ADMIN: the service disabled one of its webhook endpoints (FAILING). */
export function endpointDisabledMail(to: string, about: { projectName: string; url: string; failingSince: Date; dashboardUrl: string }): SystemMessage {
  const subject = `Webhook endpoint disabled in ${about.projectName}`;
  const intro = `Mailroom disabled the webhook endpoint ${about.url} of the project ${about.projectName}: every attempt to deliver to it has failed since ${about.failingSince.toISOString()}.`;
  const outro = 'It receives no events until it is enabled again (PATCH /webhooks/:id {"enabled": true}, or the Webhooks page of the dashboard); events recorded meanwhile can be sent with a replay.';
  return {
    to,
    subject,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><p>${escapeHtml(intro)}</p><p>${escapeHtml(outro)}</p><p><a href="${escapeHtml(about.dashboardUrl)}">${escapeHtml(about.dashboardUrl)}</a></p></body></html>`,
    text: `${intro}\n\n${outro}\n\n${about.dashboardUrl}\n`,
  };
}
