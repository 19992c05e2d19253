import { z } from "zod";
import { commandText, shellScript } from "../policy/shell/command-verdict.js";
import { readyArgv, runArgv } from "../runs/sandbox-run.js";
import { discardedNote, limitFields, removedFields, sandboxUnavailable } from "./support/run-fields.js";
import { runContextOf } from "./support/run-context.js";
import { grantHint, runHosts, runTimeouts } from "./support/granted-limits.js";
import { guardedRun, guardedRunEvents } from "../runs/guarded-run.js";
import { defineTool } from "./define-tool.js";
import { ok, type ToolOutcome } from "./tool.js";

const DESCRIPTION = `Run one program in the repository root, inside a sandbox: no network (only hosts a maintainer granted with request_grant), time and output are limited.
- argv is the program and its arguments, executed as they are, without a shell: no pipes, redirections, globs, variables or $(…). ["git", "log", "--oneline", "-5"], ["rg", "-n", "TODO", "src"].
- Shell syntax needs an explicit shell, ["sh", "-c", "…"]: a maintainer must approve every such command (it may be refused outright when nobody is watching).
- Every command goes through the approval policy: dangerous ones are refused, others may wait for a maintainer. Commands allowed as readers see the repository read-only.
- Files a command changes are put back afterwards unless a maintainer approved that command: change files with write_file / edit_file.
- A non-zero exit code is a normal result (exit_code), not an error.
- To run the test suite use run_tests: only its runs count for finish.`;

const input = z.strictObject({
  argv: z
    .array(z.string())
    .min(1)
    .refine((a) => a[0] !== "", "argv[0] is the program to run: it may not be empty")
    .describe('The program and its arguments, one word per element, e.g. ["npm", "run", "lint"]. Not a shell line.'),
});

export const runCommandTool = defineTool({
  name: "run_command",
  version: "4",
  description: DESCRIPTION,
  input,
  effect: { risk: "command", mutatesWorkspace: true, idempotent: false },
  modes: ["execute"],
  // Each stream on its own: the head and tail of stdout say nothing of stderr.
  output: { fields: ["stdout", "stderr"] },
  // No human should approve a command that cannot run anyway.
  async precheck(_args, ctx) {
    return ctx.sandbox === null ? sandboxUnavailable() : null;
  },
  request(args) {
    return { kind: "command", argv: args.argv };
  },
  async preview(args) {
    const script = shellScript(args.argv);
    return script === null ? `$ ${commandText(args.argv)}` : `$ ${commandText(args.argv.slice(0, 2))} '…'   # runs this shell text:\n${script}`;
  },
  async execute(args, ctx): Promise<ToolOutcome> {
    if (ctx.sandbox === null) return { result: { ok: false, error: sandboxUnavailable() } };
    const grant = ctx.grant ?? { by: "policy", readOnly: false };
    const readOnly = grant.by === "policy" && grant.readOnly;
    const runs = runContextOf(ctx);
    const seconds = runTimeouts(ctx.repoConfig, ctx.state.grants).commandSeconds;
    const humanApproved = grant.by === "human";
    const argv = { argv: args.argv, timeoutSeconds: seconds, readOnly, humanApproved, grantedHosts: runHosts(ctx.state) };
    // The sandbox gets ready while the tree is snapshotted; the command starts after both.
    const guarded = await guardedRun(runs, humanApproved, () => runArgv(runs, argv), readyArgv(runs, argv));
    const { res, discarded } = guarded;
    const data = {
      argv: args.argv,
      exit_code: res.exitCode,
      signal: res.signal,
      timed_out: res.timedOut,
      ...limitFields(res),
      duration_ms: res.durationMs,
      stdout: res.stdout,
      stderr: res.stderr,
      truncated: res.truncated,
      ...(readOnly ? { read_only: true } : {}),
      ...discardedNote("The command", discarded),
      ...removedFields(res),
      ...(guarded.kept.length > 0 ? { changed: guarded.kept } : {}),
      ...grantHint(res, seconds),
    };
    return { result: ok(data, res.truncated), events: guardedRunEvents(runCommandTool.name, guarded) };
  },
});
