import { z } from "zod";
import { limitFields, modelOutput, runShell, sandboxUnavailable } from "./sandbox-run.js";
import { defineTool, ok } from "./tool.js";

const DESCRIPTION = `Run a shell command in the repository root, inside a sandbox: no network, only the repository is writable, time and output are limited.
- The command goes through the approval policy: dangerous commands are refused, others may wait for a maintainer.
- A non-zero exit code is a normal result (exit_code), not an error.
- To run the test suite use run_tests: only its runs count for finish.`;

const input = z.strictObject({
  command: z.string().min(1).describe("Shell command line, run with /bin/sh -c in the repository root, e.g. `npm run lint`."),
});

export const runCommandTool = defineTool({
  name: "run_command",
  version: "1",
  description: DESCRIPTION,
  input,
  risk: "command",
  mutatesWorkspace: true,
  idempotent: false,
  modes: ["execute"],
  // No human should approve a command that cannot run anyway.
  async precheck(_args, ctx) {
    return ctx.sandbox === null ? sandboxUnavailable() : null;
  },
  request(args) {
    return { kind: "command", tool: "run_command", command: args.command };
  },
  async preview(args) {
    return `$ ${args.command}`;
  },
  async execute(args, ctx) {
    if (ctx.sandbox === null) return { result: { ok: false, error: sandboxUnavailable() } };
    const res = await runShell(ctx, { command: args.command, timeoutSeconds: ctx.repoConfig.timeouts.command_seconds });
    const out = modelOutput(res);
    const data = {
      command: args.command,
      exit_code: res.exitCode,
      signal: res.signal,
      timed_out: res.timedOut,
      ...limitFields(res),
      duration_ms: res.durationMs,
      stdout: out.stdout,
      stderr: out.stderr,
      truncated: out.truncated,
    };
    return { result: ok(data, out.truncated) };
  },
});
