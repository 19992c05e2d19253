import { ensureSetup, setupMayUseNetwork } from "../tools/test-setup.js";
import type { CallEnv } from "./call-handler.js";

/**
 * A setup that may use the network (sandbox.network_for_setup) runs as soon as the session is in
 * execute mode, before any of its calls can change the workspace: later it would run files the agent
 * wrote, with the network on (see test-setup.ts). Its outcome is recorded either way; if it fails,
 * run_tests tries it again, offline.
 */
export async function runNetworkedSetupFirst(env: CallEnv): Promise<void> {
  const ctx = env.context();
  if (ctx.state.mode !== "execute" || ctx.sandbox === null || !ctx.repoConfig.sandbox.network_for_setup || !setupMayUseNetwork(ctx)) return;
  const setup = await ensureSetup(ctx);
  if (setup.ran) await env.ledger.append(setup.event);
}
