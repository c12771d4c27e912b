import { describe, expect, it } from 'vitest';
import { addFilter, addGroup, emptyTree, fromApiTree, getGroup, problems, removeFilter, removeGroup, setLogic, toApiTree, updateFilter, type FilterTree } from './filterTree';

describe('filter tree', () => {
  it('adds, updates and removes filters and groups, nested included', () => {
    let t = emptyTree();
    t = updateFilter(t, [0], 0, { value: 'example.com', operator: 'contains' });
    t = addFilter(t, [0]);
    t = updateFilter(t, [0], 1, { field: 'data.age' }, { 'data.age': 'number' });
    expect(getGroup(t, [0]).filters[1]).toEqual({ field: 'data.age', operator: 'equals', value: '' });
    t = updateFilter(t, [0], 1, { operator: 'greaterThan', value: '30' });
    t = addGroup(t, [0]);
    expect(t.groups[0].conditions).toEqual({ logic: 'OR', groups: [{ filters: [{ field: 'email', operator: 'equals', value: '' }] }] });
    t = updateFilter(t, [0, 0], 0, { field: 'event.signup' });
    expect(getGroup(t, [0, 0]).filters[0]).toEqual({ field: 'event.signup', operator: 'triggered' });
    t = updateFilter(t, [0, 0], 0, { operator: 'triggeredWithin', value: '7' });
    expect(getGroup(t, [0, 0]).filters[0].unit).toBe('days');
    t = setLogic(t, [], 'OR');
    t = addGroup(t);
    t = removeGroup(t, [1]);
    expect(toApiTree(t, { 'data.age': 'number' })).toEqual({
      logic: 'OR',
      groups: [
        {
          filters: [
            { field: 'email', operator: 'contains', value: 'example.com' },
            { field: 'data.age', operator: 'greaterThan', value: 30 },
          ],
          conditions: { logic: 'OR', groups: [{ filters: [{ field: 'event.signup', operator: 'triggeredWithin', value: 7, unit: 'days' }] }] },
        },
      ],
    });
    t = removeGroup(t, [0, 0]);
    expect(t.groups[0].conditions).toBeUndefined();
    t = removeFilter(t, [0], 0);
    expect(t.groups[0].filters).toHaveLength(1);
  });

  it('reports what keeps the tree from being sent', () => {
    let t = emptyTree();
    expect(problems(t)).toEqual([{ path: [0], index: 0, message: 'Enter a value.' }]);
    t = updateFilter(t, [0], 0, { operator: 'exists' });
    expect(problems(t)).toEqual([]);
    t = removeFilter(t, [0], 0);
    expect(problems(t)[0].message).toMatch(/empty/);
    expect(problems({ logic: 'AND', groups: [] })[0].message).toMatch(/at least one group/);
  });

  it('types values: booleans, segment membership without value, aliases read back', () => {
    let t = emptyTree();
    t = updateFilter(t, [0], 0, { field: 'subscribed', value: 'true' });
    t = addFilter(t, [0]);
    t = updateFilter(t, [0], 1, { field: 'segment.abc' });
    expect(toApiTree(t).groups[0].filters).toEqual([
      { field: 'subscribed', operator: 'equals', value: true },
      { field: 'segment.abc', operator: 'memberOfSegment' },
    ]);
    const raw = { logic: 'AND', groups: [{ filters: [{ field: 'data.n', operator: 'gte', value: 3 }] }] };
    const read: FilterTree = fromApiTree(raw);
    expect(read.groups[0].filters[0]).toEqual({ field: 'data.n', operator: 'greaterThanOrEqual', value: 3 });
  });
});
