import { listContactsStatements, searchWordsQuery } from './list-contacts.sql';

describe('contacts search SQL', () => {
  it('turns a term into a prefix query of its words, operators and punctuation dropped', () => {
    expect(searchWordsQuery('ACME Ltd')).toBe('acme:* & ltd:*');
    expect(searchWordsQuery('"park" \\ & | ! :*')).toBe('park:*');
    expect(searchWordsQuery('Zürich-Ost 2')).toBe('zürich:* & ost:* & 2:*');
    expect(searchWordsQuery('% _ .')).toBeNull();
  });

  it('searches the email only when the project has no string field or the term no word', () => {
    const emailOnly = listContactsStatements('p', { search: 'Acme' }, undefined, []);
    expect(emailOnly.page.text).not.toContain('to_tsquery');
    expect(emailOnly.page.params).toContain('%acme%');
    const noWord = listContactsStatements('p', { search: '%' }, undefined, ['company']);
    expect(noWord.page.text).not.toContain('to_tsquery');
    expect(noWord.page.params).toContain('%\\%%');
  });

  it('adds the words test over the string keys, passed as parameters (never in the SQL text)', () => {
    const s = listContactsStatements('p', { search: 'Acme Ltd' }, undefined, ["company'; drop", 'profile.city']);
    expect(s.page.text).toContain("jsonb_to_tsvector('simple'::regconfig, data, '[\"string\"]'::jsonb) @@ to_tsquery('simple', $3)");
    expect(s.page.text).not.toContain('drop');
    expect(s.page.params.slice(0, 4)).toEqual(['p', '%acme ltd%', 'acme:* & ltd:*', ["company'; drop", 'profile.city']]);
    expect(s.count?.params).toEqual(['p', '%acme ltd%', 'acme:* & ltd:*', ["company'; drop", 'profile.city']]);
  });
});
