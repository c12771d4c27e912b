import escapeHtml from 'escape-html';
/**
 * Minimal HTML for the links in account mail, so a deployment without a dashboard still works:
 * GET shows a form (changing nothing, so link scanners cannot spend a token), its POST acts.
 */
const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;line-height:1.5}input,button{font-size:1rem;padding:.5rem;margin:.25rem 0}</style></head>` +
  `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

export const verifyEmailForm = (token: string): string =>
  page(
    'Verify your email',
    `<form method="post" action="/auth/verify-email"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Verify my email address</button></form>`,
  );

export const resetPasswordForm = (token: string): string =>
  page(
    'Choose a new password',
    `<form method="post" action="/auth/reset-password"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
      `<label>New password<br><input type="password" name="password" minlength="8" maxlength="256" required autocomplete="new-password"></label><br>` +
      `<button type="submit">Set password</button></form>`,
  );

export const resultPage = (title: string, message: string): string => page(title, `<p>${escapeHtml(message)}</p>`);
