import { UsageError } from "./usage-error.js";
import { applyDotEnv, DotEnvError } from "../config/dot-env.js";
import { processOperatorEnv } from "../config/operator-env.js";
import { secretsFromEnv } from "../safety/secrets.js";
import { redactedOutput } from "./redacted-output.js";
import { exitAfterDrain, ignoreClosedReader } from "./exit-after-drain.js";
import { hostEnvironment, keepHelper } from "../process/index.js";
import { setupTracing } from "../trace/otel-setup.js";

// Each command is loaded when it runs: `patchgate mcp-server`, started by MCP clients and then idle,
// loads only itself (all the commands together would add tens of MB to it).
const usage = async () => `usage:
  ${(await import("./run-command.js")).RUN_USAGE}
  ${(await import("./resume-command.js")).RESUME_USAGE}
  ${(await import("./replay-command.js")).REPLAY_USAGE}
  ${(await import("./list-command.js")).LIST_USAGE}
  ${(await import("./retry-command.js")).RETRY_USAGE}
  ${(await import("./prune-command.js")).PRUNE_USAGE}
  ${(await import("./inspect-commands.js")).SHOW_USAGE}
  ${(await import("./inspect-commands.js")).TRACE_USAGE}
  patchgate --version
  patchgate eval [--cases <dir>] [--out <dir>] [--llm scripted|openai] [--model <m>]
  ${(await import("./mcp-server-command.js")).MCP_SERVER_USAGE}
  ${(await import("./serve-command.js")).SERVE_USAGE}
  ${(await import("./worker-command.js")).WORKER_USAGE}
  ${(await import("./status-command.js")).STATUS_USAGE}
  ${(await import("./verify-command.js")).VERIFY_USAGE}
  ${(await import("./keys-command.js")).KEYS_USAGE}
  ${(await import("./verify-session-command.js")).VERIFY_SESSION_USAGE}
environment: OPENAI_API_KEY, OPENAI_BASE_URL, PATCHGATE_MODEL, PATCHGATE_DATA_DIR, PATCHGATE_MCP_CONFIG, PATCHGATE_LLM_*, DATABASE_URL (see docs/cli.md); also read from ./.env`;

function readDotEnv(): string | null {
  try {
    applyDotEnv();
    return null;
  } catch (e) {
    if (DotEnvError.isInstance(e)) return e.message;
    throw e;
  }
}

// `.env` first, as the app reads it: every variable below (the secrets to redact too) may come from it.
const dotEnvProblem = readDotEnv();
// The operator's variables, read once (after `.env`) and passed to the command.
const ENV = processOperatorEnv();
const SECRETS = secretsFromEnv(hostEnvironment());
const errOut = redactedOutput(process.stderr, SECRETS);

/** Entry of the `patchgate` command: dispatch only. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = redactedOutput(process.stdout, SECRETS);
  if (dotEnvProblem) throw new UsageError(dotEnvProblem);
  switch (command) {
    case "--version":
    case "-V":
    case "version":
      out.write(`${(await import("./version.js")).versionLine()}\n`);
      return 0;
    case "run":
      return (await import("./run-command.js")).runCommand(rest, out, ENV);
    case "resume":
      return (await import("./resume-command.js")).resumeCommand(rest, out, ENV);
    case "replay":
      return (await import("./replay-command.js")).replayCommand(rest, out, ENV);
    case "list":
      return (await import("./list-command.js")).listCommand(rest, out, ENV);
    case "show":
      return (await import("./inspect-commands.js")).showCommand(rest, out, ENV);
    case "trace":
      return (await import("./inspect-commands.js")).traceCommand(rest, out, ENV);
    case "eval":
      return (await import("./eval-command.js")).evalCommand(rest, out);
    case "mcp-server":
      return (await import("./mcp-server-command.js")).mcpServerCommand(rest);
    case "serve":
      return (await import("./serve-command.js")).serveCommand(rest, out, ENV);
    case "worker":
      return (await import("./worker-command.js")).workerCommand(rest, out, ENV);
    case "status":
      return (await import("./status-command.js")).statusCommand(rest, out, ENV);
    case "retry":
      return (await import("./retry-command.js")).retryCommand(rest, out, ENV);
    case "prune":
      return (await import("./prune-command.js")).pruneCommand(rest, out, ENV);
    case "verify":
      if (rest.includes("--session")) return (await import("./verify-session-command.js")).runVerifySession(rest, out, ENV);
      return (await import("./verify-command.js")).verifyCommand(rest, out, ENV);
    case "keys":
      return (await import("./keys-command.js")).keysCommand(rest, out, ENV);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      out.write((await usage()) + "\n");
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"\n${await usage()}`);
  }
}

// Commands that run sessions keep the spawn helper for their whole run; those that start one at once
// start it now, so that it starts beside their own loading instead of at their first git call.
const SESSION_COMMANDS = new Map([
  ["run", { startNow: true }],
  ["resume", { startNow: true }],
  ["retry", { startNow: true }],
  ["serve", { startNow: false }],
  ["worker", { startNow: false }],
]);
const sessions = SESSION_COMMANDS.get(process.argv[2] ?? "");
if (sessions && !process.argv.includes("--help") && !process.argv.includes("-h")) keepHelper(sessions);

// Spans go out only when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise this registers nothing. The MCP
// server emits none, and starts faster without the SDK.
const tracing = process.argv[2] === "mcp-server" ? undefined : await setupTracing(ENV);

ignoreClosedReader(process.stdout);
ignoreClosedReader(process.stderr);

// A command that ran sessions ends after the dependency-cache entries still committing beside them.
const besideCommitsSettled = async () => {
  if (sessions) await (await import("../depcache/index.js")).besideCommitsSettled();
};

main(process.argv.slice(2)).then(
  async (code) => {
    await besideCommitsSettled();
    await tracing?.shutdown();
    await exitAfterDrain(code);
  },
  async (err: unknown) => {
    await besideCommitsSettled();
    if (err instanceof UsageError || (err as Error)?.name === "UsageError") {
      errOut.write(`patchgate: ${(err as Error).message}\n`);
      await exitAfterDrain((err as UsageError).exitCode ?? 2);
    }
    errOut.write(`patchgate: ${(err as Error)?.stack ?? String(err)}\n`);
    await exitAfterDrain(1);
  },
);
