import { describe, expect, it } from 'vitest';
import { renderPreview } from '../pages/templates/liquid-preview';
import { KEY_SYNTAX_HINT, liquidVariable } from './liquid-keys';

describe('liquidVariable', () => {
  it('writes plain identifiers bare and every other key through data["…"]', () => {
    expect(liquidVariable('firstName')).toBe('{{firstName}}');
    expect(liquidVariable('first_name')).toBe('{{first_name}}');
    expect(liquidVariable('first name')).toBe('{{data["first name"]}}');
    expect(liquidVariable('plan-tier')).toBe('{{data["plan-tier"]}}');
    expect(liquidVariable('2fa')).toBe('{{data["2fa"]}}');
  });

  it.each(['firstName', 'first name', 'plan-tier', '2fa', 'Prénom', 'say "hi"'])('renders %p through the preview engine (the server options)', (key) => {
    const result = renderPreview('s', liquidVariable(key), { [key]: 'VALUE' });
    expect(result).toMatchObject({ ok: true, html: 'VALUE' });
  });

  it('the hint names forms that render', () => {
    const forms = KEY_SYNTAX_HINT.match(/\{\{[^}]+\}\}/g)!;
    expect(forms).toEqual(['{{firstName}}', '{{data["first name"]}}']);
    const result = renderPreview('s', forms.join('|'), { firstName: 'Ada', 'first name': 'Grace' });
    expect(result).toMatchObject({ ok: true, html: 'Ada|Grace' });
  });
});
