import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { type FieldChoices, FilterBuilder } from './FilterBuilder';
import { emptyTree, type FilterTree, toApiTree } from './filterTree';

afterEach(cleanup);

const choices: FieldChoices = { types: { 'data.score': 'number' }, dataFields: ['data.score'], eventNames: ['signup'], segments: [{ id: 's1', name: 'VIP' }] };

function Harness({ onTree }: { onTree: (t: FilterTree) => void }) {
  const [tree, setTree] = useState(emptyTree());
  return (
    <FilterBuilder
      tree={tree}
      choices={choices}
      onChange={(t) => {
        setTree(t);
        onTree(t);
      }}
    />
  );
}

describe('FilterBuilder', () => {
  it('builds a tree from fields, operators, values, units and groups', () => {
    let last: FilterTree = emptyTree();
    render(<Harness onTree={(t) => (last = t)} />);
    expect(screen.getByRole('alert').textContent).toBe('Enter a value.');
    fireEvent.change(screen.getByLabelText('Group 1 filter 1 field'), { target: { value: 'data.score' } });
    fireEvent.change(screen.getByLabelText('Group 1 filter 1 operator'), { target: { value: 'greaterThan' } });
    fireEvent.change(screen.getByLabelText('Group 1 filter 1 value'), { target: { value: '10' } });
    expect((screen.getByLabelText('Group 1 filter 1 value') as HTMLInputElement).type).toBe('number');
    fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
    fireEvent.change(screen.getByLabelText('Group 2 filter 1 field'), { target: { value: 'event.signup' } });
    fireEvent.change(screen.getByLabelText('Group 2 filter 1 operator'), { target: { value: 'notTriggeredWithin' } });
    fireEvent.change(screen.getByLabelText('Group 2 filter 1 value'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Group 2 filter 1 unit'), { target: { value: 'weeks' } });
    fireEvent.change(screen.getByLabelText('Groups:'), { target: { value: 'OR' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(toApiTree(last, choices.types)).toEqual({
      logic: 'OR',
      groups: [
        { filters: [{ field: 'data.score', operator: 'greaterThan', value: 10 }] },
        { filters: [{ field: 'event.signup', operator: 'notTriggeredWithin', value: 3, unit: 'weeks' }] },
      ],
    });
  });

  it('offers segment membership without a value', () => {
    let last: FilterTree = emptyTree();
    render(<Harness onTree={(t) => (last = t)} />);
    fireEvent.change(screen.getByLabelText('Group 1 filter 1 field'), { target: { value: 'segment.s1' } });
    expect(screen.queryByLabelText('Group 1 filter 1 value')).toBeNull();
    expect(last.groups[0].filters[0]).toEqual({ field: 'segment.s1', operator: 'memberOfSegment' });
  });
});
