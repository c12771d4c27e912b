import escapeHtml from 'escape-html';
import type { SystemMessage } from '../../platform/mail/system-mailer';

function layout(to: string, subject: string, intro: string, action: string, link: string, outro: string): SystemMessage {
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(action)}</a></p>
<p style="color:#666;font-size:13px">${escapeHtml(outro)}<br>${escapeHtml(link)}</p>
</body></html>`;
  const text = `${intro}\n\n${action}: ${link}\n\n${outro}\n`;
  return { to, subject, html, text };
}

export const verificationMail = (to: string, publicUrl: string, token: string): SystemMessage =>
  layout(
    to,
    'Verify your email address',
    'Confirm that this address belongs to your Mailroom account.',
    'Verify email',
    `${publicUrl}/auth/verify-email?token=${encodeURIComponent(token)}`,
    'The link works once and expires in 24 hours. If you did not sign up, ignore this message.',
  );

export const passwordResetMail = (to: string, publicUrl: string, token: string): SystemMessage =>
  layout(
    to,
    'Reset your password',
    'Someone asked to reset the password of your Mailroom account.',
    'Choose a new password',
    `${publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`,
    'The link works once and expires in 1 hour. If you did not ask for this, ignore this message; your password stays the same.',
  );
