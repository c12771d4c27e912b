import { format, Locale } from '../../../i18n/locales';
import { RECIPIENT_MESSAGES } from '../../../i18n/recipient-messages';

/**
 * The built-in confirmation email in the recipient's language, as Liquid: the project name, the
 * address and the link arrive as variables (`confirmProject`, `confirmEmail`, `confirmUrl`), so
 * Liquid escapes them and a project name cannot inject markup or tags.
 */
export function builtInConfirmationEmail(locale: Locale): { subject: string; body: string } {
  const m = RECIPIENT_MESSAGES[locale];
  const values = { project: '{{ confirmProject }}', email: '{{ confirmEmail }}' };
  const body =
    `<div style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:15px;line-height:22px;color:#222">` +
    `<p>${format(m.confirmEmailIntro, values)}</p>` +
    `<p><a href="{{ confirmUrl }}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#222;color:#fff;text-decoration:none">${m.confirmButton}</a></p>` +
    `<p style="font-size:13px;color:#666">{{ confirmUrl }}</p>` +
    `<p style="font-size:13px;color:#666">${m.confirmEmailIgnore}</p></div>`;
  return { subject: format(m.confirmSubject, values), body };
}
