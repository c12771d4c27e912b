import { format, Locale } from '../../../i18n/locales';
import { RECIPIENT_MESSAGES } from '../../../i18n/recipient-messages';
import escapeHtml from 'escape-html';

export interface FooterInput {
  locale: Locale;
  projectName: string;
  unsubscribeUrl: string;
  manageUrl: string;
}

export function footerHtml(input: FooterInput): string {
  const m = RECIPIENT_MESSAGES[input.locale];
  const reason = format(m.footerReason, { project: escapeHtml(input.projectName) });
  return (
    `<div data-mailroom-footer style="margin-top:32px;padding-top:16px;border-top:1px solid #e5e5e5;font-size:12px;line-height:18px;color:#888;text-align:center">` +
    `${reason}<br><a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#888">${escapeHtml(m.footerUnsubscribe)}</a>` +
    ` · <a href="${escapeHtml(input.manageUrl)}" style="color:#888">${escapeHtml(m.footerManage)}</a></div>`
  );
}

export function footerText(input: FooterInput): string {
  const m = RECIPIENT_MESSAGES[input.locale];
  return `\n\n--\n${format(m.footerReason, { project: input.projectName })}\n${m.footerUnsubscribe}: ${input.unsubscribeUrl}\n${m.footerManage}: ${input.manageUrl}\n`;
}
