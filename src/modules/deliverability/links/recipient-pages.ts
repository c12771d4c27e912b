import { format, Locale } from '../../../i18n/locales';
import { RECIPIENT_MESSAGES } from '../../../i18n/recipient-messages';
import { escapeHtml } from '../tracking/html-instrument';

export type PageKind = 'unsubscribe' | 'subscribe' | 'manage' | 'confirm' | 'invalid';

export interface PageModel {
  kind: PageKind;
  locale: Locale;
  email: string;
  projectName: string;
  subscribed: boolean;
  /** Set after a POST changed (or confirmed) the state. */
  done?: boolean;
}

/** Self-contained HTML: no scripts, no external assets; the form posts back to the same URL. */
export function renderRecipientPage(model: PageModel): string {
  const m = RECIPIENT_MESSAGES[model.locale];
  const values = { email: escapeHtml(model.email), project: escapeHtml(model.projectName) };
  const text = (template: string) => format(template, values);
  const button = (label: string, action?: string) =>
    `<form method="post">${action ? `<input type="hidden" name="action" value="${action}">` : ''}<button type="submit">${escapeHtml(label)}</button></form>`;

  let title: string;
  let body: string;
  if (model.kind === 'invalid') {
    title = m.linkInvalidTitle;
    body = `<p>${escapeHtml(m.linkInvalid)}</p>`;
  } else if (model.kind === 'confirm') {
    title = m.confirmTitle;
    body = model.done ? `<p>${text(m.confirmedDone)}</p>` : `<p>${text(m.confirmQuestion)}</p>${button(m.confirmButton)}`;
  } else if (model.kind === 'manage') {
    title = m.manageTitle;
    body = model.subscribed
      ? `<p>${text(m.manageSubscribed)}</p>${button(m.unsubscribeButton, 'unsubscribe')}`
      : `<p>${text(m.manageUnsubscribed)}</p>${button(m.subscribeButton, 'subscribe')}`;
  } else if (model.kind === 'unsubscribe') {
    title = m.unsubscribeTitle;
    body = model.done ? `<p>${text(m.unsubscribedDone)}</p>` : `<p>${text(m.unsubscribeQuestion)}</p>${button(m.unsubscribeButton)}`;
  } else {
    title = m.subscribeTitle;
    body = model.done ? `<p>${text(m.subscribedDone)}</p>` : `<p>${text(m.subscribeQuestion)}</p>${button(m.subscribeButton)}`;
  }
  return `<!doctype html>
<html lang="${model.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)} · ${values.project}</title>
<style>body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f6f6f6;color:#222;margin:0;padding:48px 16px}main{max-width:480px;margin:0 auto;background:#fff;border-radius:8px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.1)}h1{font-size:20px;margin:0 0 16px}button{font:inherit;padding:10px 18px;border:0;border-radius:6px;background:#222;color:#fff;cursor:pointer}</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body>
</html>
`;
}
