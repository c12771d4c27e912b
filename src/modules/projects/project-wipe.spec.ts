import { deletionOrder } from './project-wipe';

describe('deletionOrder', () => {
  it('deletes referencing tables before the tables they reference', () => {
    const order = deletionOrder(
      ['contacts', 'emails', 'events', 'templates', 'campaigns'],
      [
        { child: 'emails', parent: 'contacts' },
        { child: 'emails', parent: 'templates' },
        { child: 'emails', parent: 'campaigns' },
        { child: 'campaigns', parent: 'templates' },
        { child: 'events', parent: 'contacts' },
        { child: 'contacts', parent: 'projects' },
      ],
    );
    const before = (a: string, b: string) => expect(order.indexOf(a)).toBeLessThan(order.indexOf(b));
    before('emails', 'contacts');
    before('emails', 'templates');
    before('emails', 'campaigns');
    before('campaigns', 'templates');
    before('events', 'contacts');
    expect(order.sort()).toEqual(['campaigns', 'contacts', 'emails', 'events', 'templates']);
  });

  it('ignores self-references and still orders a cycle completely', () => {
    expect(deletionOrder(['a'], [{ child: 'a', parent: 'a' }])).toEqual(['a']);
    expect(deletionOrder(['a', 'b'], [{ child: 'a', parent: 'b' }, { child: 'b', parent: 'a' }]).sort()).toEqual(['a', 'b']);
  });
});
