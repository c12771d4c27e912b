import { describe, expect, it } from 'vitest';
import { listFilterTree } from './exportFilter';

describe('listFilterTree', () => {
  it('is null without a filter', () => {
    expect(listFilterTree({})).toEqual({ tree: null, unsupported: [] });
  });

  it('turns the search, subscription and topic filters into one AND group', () => {
    expect(listFilterTree({ search: '@acme.test', subscribed: 'false', topic: 'news' })).toEqual({
      tree: {
        logic: 'AND',
        groups: [
          {
            filters: [
              { field: 'email', operator: 'contains', value: '@acme.test' },
              { field: 'subscribed', operator: 'equals', value: false },
              { field: 'topics.news', operator: 'equals', value: true },
            ],
          },
        ],
      },
      unsupported: [],
    });
  });

  it('names the filters the condition language cannot say', () => {
    expect(listFilterTree({ subscribed: 'true', confirmation: 'pending', snoozed: 'true' }).unsupported).toEqual(['double opt-in', 'snooze']);
  });
});
