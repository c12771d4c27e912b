/**
 * A unit test's collaborator from its class, in the manner of Immich's `newTestService`: every
 * method of the class (and of its parents) is a `jest.fn()`, so a test gives the behaviour it
 * relies on (`implementations`) and asserts on the calls, never on what the real one does inside
 * (its SQL, its connections). A method the test did not give answers undefined.
 */
export function automock<T extends object>(type: abstract new (...args: never[]) => T, implementations: { [K in keyof T]?: T[K] } = {}): jest.Mocked<T> {
  const mock: Record<string, jest.Mock> = {};
  for (let proto = type.prototype as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (name === 'constructor' || name in mock || typeof descriptor?.value !== 'function') continue;
      const given = (implementations as Record<string, ((...args: unknown[]) => unknown) | undefined>)[name];
      mock[name] = given ? jest.fn(given) : jest.fn();
    }
  }
  return mock as unknown as jest.Mocked<T>;
}
