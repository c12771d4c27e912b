import { format, Locale } from '../../../i18n/locales';
import { RECIPIENT_MESSAGES } from '../../../i18n/recipient-messages';
import escapeHtml from 'escape-html';

export type PageKind = 'unsubscribe' | 'subscribe' | 'manage' | 'confirm' | 'invalid';

/** The preference centre's state: the contact's public topics (effective membership) and its snooze. */
export interface PreferencesModel {
  topics: Array<{ slug: string; name: string; description: string | null; member: boolean }>;
  snoozedUntil: Date | null;
}

export interface PageModel {
  kind: PageKind;
  locale: Locale;
  email: string;
  projectName: string;
  subscribed: boolean;
  /** Set after a POST changed (or confirmed) the state. */
  done?: boolean;
  /** The manage page's topics and snooze. */
  preferences?: PreferencesModel;
}

/**
 * What a hosted link's request answers: a page with its status, or a redirect (double opt-in's
 * `redirectUrl`). `formRedirect`: where the page's form may end up after its POST, which the
 * page's CSP `form-action` must allow (browsers apply it to the redirect too).
 */
export type PageAnswer = { status: number; html: string; formRedirect?: string } | { redirect: string };

/** Snooze choices of the preference centre (form values). */
export const SNOOZE_CHOICES = ['2w', '1m', '3m'] as const;
export type SnoozeChoice = (typeof SNOOZE_CHOICES)[number];

/** The end of a snooze chosen now: 2 weeks, or 1 or 3 calendar months. */
export function snoozeEnd(choice: SnoozeChoice, now: Date): Date {
  const end = new Date(now);
  if (choice === '2w') end.setUTCDate(end.getUTCDate() + 14);
  else end.setUTCMonth(end.getUTCMonth() + (choice === '1m' ? 1 : 3));
  return end;
}

/** The preference centre's forms: topic toggles and snooze in one form (plain POST, no script), unsubscribe-all in another. */
function preferencesHtml(model: PageModel, m: (typeof RECIPIENT_MESSAGES)[Locale]): string {
  const prefs = model.preferences ?? { topics: [], snoozedUntil: null };
  const topics = prefs.topics
    .map((t, i) => {
      const id = `topic-${i}`;
      const described = t.description ? ` aria-describedby="${id}-d"` : '';
      return (
        `<div class="opt"><input type="checkbox" id="${id}" name="topics" value="${escapeHtml(t.slug)}"${t.member ? ' checked' : ''}${described}>` +
        `<label for="${id}">${escapeHtml(t.name)}</label>` +
        (t.description ? `<p class="hint" id="${id}-d">${escapeHtml(t.description)}</p>` : '') +
        `</div>`
      );
    })
    .join('');
  const snoozed = prefs.snoozedUntil && prefs.snoozedUntil.getTime() > Date.now() ? prefs.snoozedUntil : null;
  const radio = (value: string, label: string, checked: boolean) =>
    `<div class="opt"><input type="radio" id="snooze-${value || 'keep'}" name="snooze" value="${value}"${checked ? ' checked' : ''}><label for="snooze-${value || 'keep'}">${escapeHtml(label)}</label></div>`;
  const until = snoozed ? format(m.snoozedUntil, { date: escapeHtml(snoozed.toLocaleDateString(model.locale, { dateStyle: 'long', timeZone: 'UTC' })) }) : '';
  const snooze =
    (snoozed ? radio('', until, true) : '') +
    radio('none', m.snoozeNone, !snoozed) +
    radio('2w', m.snooze2w, false) +
    radio('1m', m.snooze1m, false) +
    radio('3m', m.snooze3m, false);
  return (
    `<form method="post"><input type="hidden" name="action" value="save">` +
    (topics ? `<fieldset><legend>${escapeHtml(m.manageTopicsLegend)}</legend>${topics}</fieldset>` : '') +
    `<fieldset><legend>${escapeHtml(m.manageSnoozeLegend)}</legend>${snooze}</fieldset>` +
    `<button type="submit">${escapeHtml(m.manageSave)}</button></form>` +
    `<form method="post" class="all"><input type="hidden" name="action" value="unsubscribe"><button type="submit" class="secondary">${escapeHtml(m.unsubscribeAll)}</button></form>`
  );
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
    const notice = model.done ? `<p role="status" class="notice">${escapeHtml(m.manageSaved)}</p>` : '';
    body = model.subscribed
      ? `${notice}<p>${text(m.manageSubscribed)}</p>${preferencesHtml(model, m)}`
      : `${notice}<p>${text(m.manageUnsubscribed)}</p>${button(m.subscribeButton, 'subscribe')}`;
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
<style>body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f6f6f6;color:#222;margin:0;padding:48px 16px}main{max-width:480px;margin:0 auto;background:#fff;border-radius:8px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.1)}h1{font-size:20px;margin:0 0 16px}button{font:inherit;padding:10px 18px;border:0;border-radius:6px;background:#222;color:#fff;cursor:pointer}button.secondary{background:#fff;color:#222;border:1px solid #222}fieldset{border:1px solid #ddd;border-radius:6px;margin:0 0 16px;padding:12px 16px}legend{font-weight:600;padding:0 4px}.opt{margin:8px 0}.opt label{margin-left:8px}.hint{margin:2px 0 0 28px;font-size:13px;color:#555}.notice{background:#eef7ee;padding:8px 12px;border-radius:6px}form.all{margin-top:24px}:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body>
</html>
`;
}
