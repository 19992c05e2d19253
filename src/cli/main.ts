import { runCommand, RUN_USAGE } from "./run-command.js";
import { resumeCommand } from "./resume-command.js";
import { showCommand, traceCommand } from "./inspect-commands.js";
import { evalCommand } from "./eval-command.js";
import { UsageError } from "./runtime-env.js";
import { setupTracing } from "../trace/otel-setup.js";
import { secretsFromEnv } from "../safety/secrets.js";
import { redactedOutput } from "./redacted-output.js";

const USAGE = `usage:
  ${RUN_USAGE}
  patchgate resume <session> [--approve-plan] [--approve-writes]
  patchgate show <session>
  patchgate trace <session> [--jsonl|--json]
  patchgate eval [--cases <dir>] [--out <dir>] [--llm scripted|openai] [--model <m>]
environment: OPENAI_API_KEY, OPENAI_BASE_URL, PATCHGATE_MODEL, PATCHGATE_DATA_DIR`;

const SECRETS = secretsFromEnv();
const errOut = redactedOutput(process.stderr, SECRETS);

/** Entry of the `patchgate` command: dispatch only. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = redactedOutput(process.stdout, SECRETS);
  switch (command) {
    case "run":
      return runCommand(rest, out);
    case "resume":
      return resumeCommand(rest, out);
    case "show":
      return showCommand(rest, out);
    case "trace":
      return traceCommand(rest, out);
    case "eval":
      return evalCommand(rest, out);
    default:
      out.write(USAGE + "\n");
      return command === undefined || command === "help" || command === "--help" ? 0 : 2;
  }
}

// Spans go out only when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise this registers nothing.
const tracing = setupTracing();

main(process.argv.slice(2)).then(
  async (code) => {
    await tracing?.shutdown();
    process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof UsageError || (err as Error)?.name === "UsageError") {
      errOut.write(`patchgate: ${(err as Error).message}\n`);
      process.exit((err as UsageError).exitCode ?? 2);
    }
    errOut.write(`patchgate: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
