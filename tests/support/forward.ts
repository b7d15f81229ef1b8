/**
 * A stand-in for an object that a `beforeAll` hook makes later (a browser page, an app, a user):
 * reading a property, `in` and listing keys go to the current object, methods bound to it, so a
 * test file names it once at the top of a describe block and uses it like the object itself.
 * Using it before the hook made it throws, naming it (it never answers `undefined` for it).
 */
export function forwarding<T extends object>(current: () => T | undefined, name: string): T {
  const made = (): T => {
    const value = current();
    if (!value) throw new Error(`${name} is used before it was made (only inside tests and hooks)`);
    return value;
  };
  return new Proxy({} as T, {
    get(_stand, key) {
      const target = made();
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    has: (_stand, key) => Reflect.has(made(), key),
    ownKeys: () => Reflect.ownKeys(made()),
    getOwnPropertyDescriptor(_stand, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(made(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    set(_stand, key, value) {
      return Reflect.set(made(), key, value);
    },
  });
}
