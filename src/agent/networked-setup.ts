import { ensureSetup } from "../runs/test-setup.js";
import type { Ledger } from "../store/ledger.js";
import { setupContextOf } from "../tools/support/run-context.js";
import type { CallEnv } from "./call-env.js";

/**
 * The repository's setup runs as soon as the session is in execute mode, before any of its calls can
 * change the workspace: a networked setup (sandbox.network_for_setup) then runs only the maintainer's
 * files (see runs/test-setup.ts), and the model learns how it went (runtime context) before its first
 * execute step, not from a failing run_tests. Its outcome is recorded and memoised: a resume finds
 * it in the ledger and runs nothing, a failure included.
 */
export async function runSetupFirst(env: CallEnv): Promise<void> {
  const ctx = env.context();
  if (ctx.state.mode !== "execute" || ctx.sandbox === null || ctx.repoConfig.setup === undefined) return;
  const setup = await ensureSetup(setupContextOf(ctx));
  if (setup.ran) await env.ledger.append(setup.event);
}

/** `/agent retry`: a failed setup runs again at the next resume even though its inputs did not change. */
export async function requestSetupRetry(ledger: Ledger, by: string): Promise<void> {
  const setup = ledger.state.setup;
  if (setup !== null && !setup.passed) await ledger.append({ type: "setup_retry_requested", by });
}
