/** The variable a project's double opt-in confirmation template must use (docs/consent.md). */
export const CONFIRM_URL_VARIABLE = 'confirmUrl';

/** Whether a template's subject or body outputs `{{ confirmUrl }}` (whitespace control and filters allowed). */
export function usesConfirmUrl(template: { subject: string; body: string }): boolean {
  const pattern = new RegExp(`\\{\\{-?\\s*${CONFIRM_URL_VARIABLE}\\s*(\\||-?\\}\\})`);
  return pattern.test(template.body) || pattern.test(template.subject);
}
