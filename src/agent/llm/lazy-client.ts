import type { LLMClient } from "./types.js";

/**
 * A client made on its first request: the provider's SDK (and what it loads) stays out of a
 * process that has not called a model yet. A failure to make it fails that request, and the next
 * request tries again.
 */
export function lazyClient(model: string, make: () => Promise<LLMClient>): LLMClient {
  let client: Promise<LLMClient> | null = null;
  return {
    model,
    complete(req) {
      const made = (client ??= make().catch((e: unknown) => {
        client = null;
        throw e;
      }));
      return made.then((c) => c.complete(req));
    },
  };
}
