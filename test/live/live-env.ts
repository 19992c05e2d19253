/**
 * The live suite is opt-in: RUN_LIVE_TESTS=1 with OPENAI_API_KEY (and OPENAI_BASE_URL,
 * PATCHGATE_MODEL for another provider or model). Otherwise its tests are skipped after one printed
 * line, and nothing in them runs: no client is built, no connection opened.
 */
export const LIVE = process.env.RUN_LIVE_TESTS === "1";

export function liveTest(name: string, fn: () => Promise<void>, timeoutMs: number): void {
  if (!LIVE) {
    test.skip(name, () => undefined);
    return;
  }
  test(name, async () => {
    // Asked for but impossible: a failure, not a skip.
    if (!process.env.OPENAI_API_KEY) throw new Error("RUN_LIVE_TESTS=1 needs OPENAI_API_KEY (and OPENAI_BASE_URL for a provider other than OpenAI)");
    await fn();
  }, timeoutMs);
}

if (!LIVE) process.stderr.write("live tests skipped: they need RUN_LIVE_TESTS=1 and OPENAI_API_KEY (a real chat-completions endpoint)\n");

/** The endpoint the live tests use, passed to CLI processes explicitly. */
export function liveEndpoint(): Record<string, string> {
  const env: Record<string, string> = { OPENAI_API_KEY: process.env.OPENAI_API_KEY ?? "" };
  for (const name of Object.keys(process.env)) if (name === "OPENAI_BASE_URL" || name === "PATCHGATE_MODEL" || name.startsWith("PATCHGATE_LLM_")) env[name] = process.env[name]!;
  return env;
}
