/**
 * The base of an error that says what went wrong in a typed `kind`, for a caller that handles some
 * kinds and not others. `isInstance` tests by name, not by prototype: jest's module registry (and a
 * second copy of a module) makes `instanceof` miss an error thrown by another copy of the class.
 */
export function kindedError<K extends string>(name: string) {
  return class KindedError extends Error {
    override readonly name: string = name;
    constructor(
      readonly kind: K,
      message: string,
    ) {
      super(message);
    }
    static isInstance<T>(this: abstract new (...args: never[]) => T, e: unknown): e is T {
      return e instanceof Error && e.name === name;
    }
  };
}
