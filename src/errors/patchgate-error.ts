/**
 * The base of every error Patchgate throws. A tool's refusal is not one of these: what the model
 * should read is a result value (session/types.ts ToolResult). A thrown error says in its `kind` what
 * went wrong, for a caller that handles some kinds and not others, and in its class whether it ends
 * the session: a FatalError does when it reaches the top; a HandledError has a caller that answers it
 * (retries, replies, falls back) and the session goes on.
 *
 * `isInstance` tests by name, not by prototype: jest's module registry (and a second copy of a module)
 * makes `instanceof` miss an error thrown by another copy of the class.
 */
export abstract class PatchgateError extends Error {
  abstract readonly kind: string;
  abstract readonly endsSession: boolean;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }

  static isInstance<T>(this: abstract new (...args: never[]) => T, e: unknown): e is T {
    return e instanceof Error && e.name === this.name;
  }
}

/** Nothing in the session can answer it: when it reaches the top, the session ends (or never starts). */
export abstract class FatalError extends PatchgateError {
  get endsSession(): true {
    return true;
  }
}

/** A caller answers it (a retry, a reply, another way); the session goes on. */
export abstract class HandledError extends PatchgateError {
  get endsSession(): false {
    return false;
  }
}
