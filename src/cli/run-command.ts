import { join } from "node:path";
import { parseArgs } from "node:util";
import { createSession, prepareWorkspace } from "../agent/session-service.js";
import { openStore } from "../store/index.js";
import { drive, type DriveResult } from "./drive.js";
import { printEvents, printOutput } from "./print-events.js";
import { repoSetup } from "./repo-setup.js";
import { dataDir, llmFromEnv, modelName, UsageError } from "./runtime-env.js";
import { terminalApprover } from "./terminal-approver.js";
import { mcpFromCli } from "./mcp-option.js";
import { sandboxFromCli } from "./settings-option.js";

export const RUN_USAGE = `patchgate run --repo <path|url> [--approve-plan] [--approve-writes] [--unattended] [--model <m>] [--max-steps <n>] [--data-dir <d>] [--mcp-config <file>] [--settings <file>] "<task>"`;

/** `patchgate run`: one session on a local clone, approvals at the terminal, the result on a local branch. */
export async function runCommand(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      repo: { type: "string" },
      "approve-plan": { type: "boolean", default: false },
      "approve-writes": { type: "boolean", default: false },
      unattended: { type: "boolean", default: false },
      model: { type: "string" },
      "max-steps": { type: "string" },
      "data-dir": { type: "string" },
      "mcp-config": { type: "string" },
      settings: { type: "string" },
    },
  });
  const task = positionals.join(" ").trim();
  if (!values.repo || !task) throw new UsageError(`usage: ${RUN_USAGE}`);
  const mcp = mcpFromCli(values["mcp-config"], Boolean(process.stdin.isTTY));
  const model = modelName(values.model);
  const llm = llmFromEnv(model);
  const dir = dataDir(values["data-dir"]);
  const sandboxOpts = sandboxFromCli(values.settings, dir);
  const store = openStore({ dataDir: dir });
  try {
    const ledger = await createSession(store, {
      task: { title: task.split("\n")[0].slice(0, 120), body: task, source: { kind: "cli", repo: values.repo } },
      model,
      settings: {
        ...(values["max-steps"] ? { maxStepsPerResume: Number(values["max-steps"]) } : {}),
        ...(values.unattended ? { unattended: true } : {}),
      },
    });
    printEvents(ledger, out);
    out.write(`session ${ledger.sessionId}\n`);
    const ws = await prepareWorkspace(ledger, { source: values.repo, dir: join(dir, "workspaces", ledger.sessionId) });
    const setup = await repoSetup(ws.root);
    out.write(`${setup.sandboxNote}; tests: ${setup.testCommand ?? "none found"}${setup.testCommandSource ? ` (${setup.testCommandSource})` : ""}\n`);
    const approver = terminalApprover({ approvePlan: values["approve-plan"], approveWrites: values["approve-writes"] }, out);
    const result = await drive(
      ledger,
      ws,
      { llm, sandbox: setup.sandbox, workspace: ws, onOutput: printOutput(out), repoConfig: { ...setup.config, test: setup.testCommand }, mcp, ...sandboxOpts },
      approver,
    );
    return report(result, ledger.sessionId, ws.root, ledger.state.latestDiff?.stat ?? "", out);
  } finally {
    await store.close();
  }
}

export function report(result: DriveResult, sessionId: string, root: string, stat: string, out: NodeJS.WritableStream): number {
  if (result.kind === "done") {
    out.write(`\ndone: branch ${result.branch} at ${result.commit.slice(0, 12)} in ${root}\n${stat}\n`);
    return 0;
  }
  if (result.kind === "parked") {
    out.write(`\nsession ${sessionId} is waiting for approval; continue with: patchgate resume ${sessionId} --approve-plan --approve-writes\n`);
    return 3;
  }
  if (result.kind === "blocked") out.write(`\nblocked: ${result.message}\n`);
  out.write(`\nsession ${sessionId} ${result.kind}; see: patchgate show ${sessionId}\n`);
  return 1;
}
