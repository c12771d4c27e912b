import { automock } from '../support/automock';

class Base {
  inherited(): string {
    return 'real base';
  }
}
class Store extends Base {
  readonly field = 'kept out';
  load(id: string): string {
    return `real ${id}`;
  }
  get computed(): string {
    return 'a getter is not a method';
  }
}

describe('automock', () => {
  it("makes every method of the class and its parents a jest.fn, with the test's implementations", () => {
    const store = automock(Store, { load: (id) => `fake ${id}` });
    expect(store.load('a')).toBe('fake a');
    expect(store.load).toHaveBeenCalledWith('a');
    expect(store.inherited()).toBeUndefined();
    expect(store.inherited).toHaveBeenCalledTimes(1);
    expect(Object.keys(store).sort()).toEqual(['inherited', 'load']);
  });
});
