/**
 * The live suite is opt-in: jest collects test/live only with RUN_LIVE_TESTS=1 (jest.config.js), and
 * then each test needs OPENAI_API_KEY (and OPENAI_BASE_URL, PATCHGATE_MODEL for another provider or
 * model). `npm test` never builds a client for it or opens a connection.
 */
export function liveTest(name: string, fn: () => Promise<void>, timeoutMs: number): void {
  test(
    name,
    async () => {
      // Asked for but impossible: a failure, not a skip.
      if (!process.env.OPENAI_API_KEY) throw new Error("RUN_LIVE_TESTS=1 needs OPENAI_API_KEY (and OPENAI_BASE_URL for a provider other than OpenAI)");
      await fn();
    },
    timeoutMs,
  );
}

/** The endpoint the live tests use, passed to CLI processes explicitly. */
export function liveEndpoint(): Record<string, string> {
  const env: Record<string, string> = { OPENAI_API_KEY: process.env.OPENAI_API_KEY ?? "" };
  for (const name of Object.keys(process.env))
    if (name === "OPENAI_BASE_URL" || name === "PATCHGATE_MODEL" || name.startsWith("PATCHGATE_LLM_")) env[name] = process.env[name]!;
  return env;
}
