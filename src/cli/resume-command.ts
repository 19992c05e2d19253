import { join } from "node:path";
import { reopenSession } from "../agent/approvals.js";
import { reopenWorkspace } from "../agent/session-service.js";
import { Ledger } from "../store/ledger.js";
import { openStore } from "../store/open-store.js";
import { parseCommandArgs } from "./cli-args.js";
import { driveLocally } from "./drive-locally.js";
import { cliReceiptSigner } from "./receipt-signer.js";
import { heartbeat } from "./heartbeat.js";
import { help } from "./inspect-commands.js";
import { interruptNotice } from "./interrupt.js";
import { printEvents } from "./print-events.js";
import { redactedOutput } from "./redacted-output.js";
import { runOutput } from "./run-output.js";
import { repoSetup, selectEarly } from "./repo-setup.js";
import { report } from "./report.js";
import { caBundleFromCli } from "./ca-bundle-option.js";
import { UsageError } from "./usage-error.js";
import { dataDir } from "./data-dir.js";
import { llmFromEnv } from "./runtime-env.js";
import { resolveSessionId } from "./session-id.js";
import { terminalApprover } from "./terminal-approver.js";
import { mcpFromCli } from "./mcp-option.js";
import { sandboxFromCli } from "./settings-option.js";
import { SESSION_OPTIONS } from "./session-options.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const RESUME_USAGE =
  "patchgate resume <session|prefix> [--approve-plan] [--approve-writes] [--verbose] [--out <patch>] [--data-dir <d>] [--mcp-config <file>] [--settings <file>]";

const OPTIONS = SESSION_OPTIONS;

/**
 * `patchgate resume <session>`: continue a session from the store, in a new process — a parked one,
 * one whose process died mid-run, or one that failed after its plan was approved.
 */
export async function resumeCommand(argv: string[], terminal: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, OPTIONS, RESUME_USAGE);
  if (parsed.help) return help(terminal, RESUME_USAGE);
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(`a session id (or a prefix of one) is required\nusage: ${RESUME_USAGE}`);
  const mcp = mcpFromCli(values["mcp-config"], Boolean(process.stdin.isTTY), env);
  const dir = dataDir(values["data-dir"], env);
  const { registries, privateDestinations, secrets, budgetNotice, ...sandboxOpts } = sandboxFromCli(values.settings, dir, env);
  // Every line at the terminal from here on is redacted with the operator's whole list (run-command.ts).
  const hb = heartbeat(redactedOutput(terminal, secrets));
  const out = hb.out;
  if (budgetNotice) out.write(`${budgetNotice}\n`);
  const caBundle = caBundleFromCli(dir, env);
  const receipt = cliReceiptSigner(dir, env, secrets);
  const interrupt = interruptNotice(out);
  const store = await openStore({ dataDir: dir });
  try {
    const sessionId = await resolveSessionId(store, positionals[0], dir);
    const ledger = await Ledger.open(store, sessionId);
    interrupt.session(sessionId);
    const { llm, compaction } = llmFromEnv(ledger.state.model, env, dir);
    printEvents(ledger, out, secrets);
    // Like `/agent retry`: a session that failed after plan approval continues where it failed.
    if (ledger.state.phase === "failed" && ledger.state.mode === "execute") await reopenSession(ledger, "cli");
    hb.doing("opening the workspace");
    const egress = { caBundle, registries, privateDestinations };
    const early = selectEarly(egress);
    const ws = await reopenWorkspace(ledger, { source: ledger.state.task.source.repo, dir: join(dir, "workspaces", sessionId) });
    const setup = await repoSetup(ws.root, egress, early);
    hb.doing(null);
    const approver = terminalApprover({ approvePlan: values["approve-plan"], approveWrites: values["approve-writes"] }, out);
    const result = await driveLocally(
      ledger,
      ws,
      {
        llm,
        compaction,
        sandbox: setup.sandbox,
        workspace: ws,
        ...runOutput(out, hb, values.verbose, secrets),
        repoConfig: { ...setup.config, test: ledger.state.settings.testCommand ?? setup.testCommand },
        trigger: "cli resume",
        mcp,
        secrets,
        ...sandboxOpts,
      },
      approver,
      receipt,
    );
    return await report(result, { sessionId, root: ws.root, baseCommit: ws.baseCommit, stat: ledger.state.latestDiff?.stat ?? "", patchOut: values.out }, out);
  } finally {
    interrupt.dispose();
    hb.stop();
    await store.close();
  }
}
