import { join } from "node:path";
import { createSession, prepareWorkspace } from "../agent/session-service.js";
import { DEFAULT_MAX_COST_USD, REPO_CONFIG_PATH } from "../config/repo-config.js";
import { openStore } from "../store/open-store.js";
import { parseCommandArgs, positiveInt, positiveNumber } from "./cli-args.js";
import { driveLocally } from "./drive-locally.js";
import { cliReceiptSigner } from "./receipt-signer.js";
import { heartbeat } from "./heartbeat.js";
import { help } from "./inspect-commands.js";
import { interruptNotice } from "./interrupt.js";
import { printEvents } from "./print-events.js";
import { redactedOutput } from "./redacted-output.js";
import { runOutput } from "./run-output.js";
import { failOnSetupError } from "./fail-on-setup-error.js";
import { checkRepo } from "./repo-check.js";
import { repoSetup, selectEarly } from "./repo-setup.js";
import { runLine } from "./run-line.js";
import { applyRepoLimits, cliLimits } from "./session-limits.js";
import { report } from "./report.js";
import { caBundleFromCli } from "./ca-bundle-option.js";
import { UsageError } from "./usage-error.js";
import { checkModelEndpoint, llmFromEnv, modelName } from "./runtime-env.js";
import { dataDir } from "./data-dir.js";
import { terminalApprover } from "./terminal-approver.js";
import { mcpFromCli } from "./mcp-option.js";
import { sandboxFromCli } from "./settings-option.js";
import { SESSION_OPTIONS } from "./session-options.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const RUN_USAGE = `patchgate run --repo <path|url> [--approve-plan] [--approve-writes] [--unattended] [--include-uncommitted] [--model <m>] [--max-steps <n>] [--max-cost-usd <usd>] [--verbose] [--out <patch>] [--data-dir <d>] [--mcp-config <file>] [--settings <file>] "<task>"`;

const OPTIONS = {
  ...SESSION_OPTIONS,
  repo: { type: "string" },
  unattended: { type: "boolean", default: false },
  "include-uncommitted": { type: "boolean", default: false },
  model: { type: "string" },
  "max-steps": { type: "string" },
  "max-cost-usd": { type: "string" },
} as const;

/** `patchgate run`: one session on a local clone, approvals at the terminal, the result on a local branch. */
export async function runCommand(argv: string[], terminal: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, OPTIONS, RUN_USAGE);
  if (parsed.help) return help(terminal, RUN_USAGE);
  const { values, positionals } = parsed;
  const task = positionals.join(" ").trim();
  if (!values.repo) throw new UsageError(`--repo is required\nusage: ${RUN_USAGE}`);
  if (!task) throw new UsageError(`a task is required\nusage: ${RUN_USAGE}`);
  const maxSteps = positiveInt("max-steps", values["max-steps"]);
  const maxCostFlag = positiveNumber("max-cost-usd", values["max-cost-usd"]);
  // Everything the user can get wrong is checked before a session exists: none is left without an end.
  const mcp = mcpFromCli(values["mcp-config"], Boolean(process.stdin.isTTY), env);
  const repo = await checkRepo(values.repo, values["include-uncommitted"]);
  const model = modelName(values.model, env);
  const dir = dataDir(values["data-dir"], env);
  const { registries, privateDestinations, secrets, budgetNotice, ...sandboxOpts } = sandboxFromCli(values.settings, dir, env);
  // From here on every line at the terminal is redacted with the operator's whole list, the
  // registries' credentials among it (the entry point knew only the environment's).
  const hb = heartbeat(redactedOutput(terminal, secrets));
  const out = hb.out;
  if (budgetNotice) out.write(`${budgetNotice}\n`);
  const caBundle = caBundleFromCli(dir, env);
  const receipt = cliReceiptSigner(dir, env, secrets);
  const { llm, compaction, config } = llmFromEnv(model, env, dir);
  await checkModelEndpoint(config);
  const interrupt = interruptNotice(out);
  const store = await openStore({ dataDir: dir });
  try {
    const ledger = await createSession(store, {
      task: { title: task.split("\n")[0].slice(0, 120), body: task, source: { kind: "cli", repo: repo.source } },
      model,
      settings: {
        ...(maxSteps ? { maxStepsPerResume: maxSteps } : {}),
        ...(values.unattended ? { unattended: true } : {}),
        limits: { maxCostUsd: maxCostFlag ?? DEFAULT_MAX_COST_USD },
      },
    });
    printEvents(ledger, out, secrets);
    interrupt.session(ledger.sessionId);
    out.write(`session ${ledger.sessionId}\n`);
    if (repo.note) out.write(`${repo.note}\n`);
    hb.doing(`cloning ${repo.source}`);
    const egress = { caBundle, registries, privateDestinations };
    const early = selectEarly(egress);
    const { ws, setup } = await failOnSetupError(ledger, async () => {
      const ws = await prepareWorkspace(ledger, { source: repo.source, ref: repo.ref, dir: join(dir, "workspaces", ledger.sessionId) });
      return { ws, setup: await repoSetup(ws.root, egress, early) };
    });
    hb.doing(null);
    await applyRepoLimits(
      ledger,
      cliLimits(setup.config, { maxCostUsd: maxCostFlag }),
      `${REPO_CONFIG_PATH}${maxCostFlag === undefined ? "" : " and --max-cost-usd"}`,
    );
    out.write(`${runLine(setup)}\n`);
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
        repoConfig: { ...setup.config, test: setup.testCommand },
        mcp,
        secrets,
        ...sandboxOpts,
      },
      approver,
      receipt,
    );
    return await report(
      result,
      { sessionId: ledger.sessionId, root: ws.root, baseCommit: ws.baseCommit, stat: ledger.state.latestDiff?.stat ?? "", patchOut: values.out },
      out,
    );
  } finally {
    interrupt.dispose();
    hb.stop();
    await store.close();
  }
}
