import { usesConfirmUrl } from './confirm-url';

describe('usesConfirmUrl', () => {
  it.each(['<a href="{{confirmUrl}}">x</a>', '{{ confirmUrl }}', '{{- confirmUrl -}}', '{{ confirmUrl | raw }}'])('accepts %s', (body) => {
    expect(usesConfirmUrl({ subject: 's', body })).toBe(true);
  });

  it.each(['{{ unsubscribeUrl }}', 'confirmUrl', '{{ confirmUrlX }}', '{{ data.confirmUrl }}'])('refuses %s', (body) => {
    expect(usesConfirmUrl({ subject: 's', body })).toBe(false);
  });
});
