import { join } from "node:path";
import { parseArgs } from "node:util";
import { reopenWorkspace } from "../agent/session-service.js";
import { Ledger } from "../store/ledger.js";
import { openStore } from "../store/index.js";
import { drive } from "./drive.js";
import { printEvents, printOutput } from "./print-events.js";
import { repoSetup } from "./repo-setup.js";
import { report } from "./run-command.js";
import { dataDir, llmFromEnv, UsageError } from "./runtime-env.js";
import { terminalApprover } from "./terminal-approver.js";
import { mcpFromCli } from "./mcp-option.js";
import { sandboxFromCli } from "./settings-option.js";

/** `patchgate resume <session>`: continue a parked session from the store, in a new process. */
export async function resumeCommand(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "approve-plan": { type: "boolean", default: false },
      "approve-writes": { type: "boolean", default: false },
      "data-dir": { type: "string" },
      "mcp-config": { type: "string" },
      settings: { type: "string" },
    },
  });
  const sessionId = positionals[0];
  if (!sessionId) throw new UsageError("usage: patchgate resume <session> [--approve-plan] [--approve-writes] [--mcp-config <file>] [--settings <file>]");
  const mcp = mcpFromCli(values["mcp-config"], Boolean(process.stdin.isTTY));
  const dir = dataDir(values["data-dir"]);
  const sandboxOpts = sandboxFromCli(values.settings, dir);
  const store = openStore({ dataDir: dir });
  try {
    const ledger = await Ledger.open(store, sessionId).catch(() => {
      throw new UsageError(`no session ${sessionId} in ${dir}`);
    });
    const llm = llmFromEnv(ledger.state.model);
    printEvents(ledger, out);
    const ws = await reopenWorkspace(ledger, { source: ledger.state.task.source.repo, dir: join(dir, "workspaces", sessionId) });
    const setup = await repoSetup(ws.root);
    const approver = terminalApprover({ approvePlan: values["approve-plan"], approveWrites: values["approve-writes"] }, out);
    const result = await drive(
      ledger,
      ws,
      { llm, sandbox: setup.sandbox, workspace: ws, onOutput: printOutput(out), repoConfig: { ...setup.config, test: ledger.state.settings.testCommand ?? setup.testCommand }, trigger: "cli resume", mcp, ...sandboxOpts },
      approver,
    );
    return report(result, sessionId, ws.root, ledger.state.latestDiff?.stat ?? "", out);
  } finally {
    await store.close();
  }
}
