import { readFile } from "node:fs/promises";
import path from "node:path";
import { contentHash } from "../../src/policy/edit-context.js";
import { defaultRules, RULE } from "../../src/policy/default-rules.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { lexicalRel } from "../../src/tools/support/paths.js";
import type { ToolContext, ToolDefinition } from "../../src/tools/tool.js";
import { builtinCase, calcTestCommand, realSandbox, runScripted } from "./run-helpers.js";

/**
 * Proof that the cases can fail: each test breaks one runtime rule in a copy of the runtime (the
 * tool set or the sandbox passed to the loop) and runs the case that pins that rule. The case must
 * then FAIL, and say why. (The same cases pass against the real runtime in suite.test.ts.)
 */

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await realSandbox();
});

/** A copy of a write tool that believes the agent has just read whatever it is about to change. */
function withoutEditContext(tool: ToolDefinition): ToolDefinition {
  const seeing = async (input: unknown, ctx: ToolContext): Promise<ToolContext> => {
    const rel = lexicalRel((input as { path: string }).path);
    const current = await readFile(path.join(ctx.workspace.root, rel)).catch(() => null);
    if (current === null) return ctx;
    const fileContexts = { ...ctx.state.fileContexts, [rel]: { hash: contentHash(current), step: ctx.state.step } };
    return { ...ctx, state: { ...ctx.state, fileContexts } };
  };
  return {
    ...tool,
    precheck: async (input, ctx) => tool.precheck!(input, await seeing(input, ctx)),
    preview: async (input, ctx) => tool.preview!(input, await seeing(input, ctx)),
    execute: async (input, ctx) => tool.execute(input, await seeing(input, ctx)),
  };
}

test("with the edit-context gate disabled, the edit-without-read case fails", async () => {
  const tools = ALL_TOOLS.map((t) => (t.name === "edit_file" || t.name === "write_file" ? withoutEditContext(t) : t));
  const r = await runScripted(builtinCase("edit-without-read"), { sandbox, runtime: { tools } });
  expect(r.status).toBe("failed");
  expect(r.problems).toEqual(["class edit_without_read expected but not observed"]);
  // The unread edit went through, so the model's retry no longer matched: the trace shows bad_patch instead.
  expect(r.classes.map((c) => c.cls)).toEqual(["bad_patch"]);
});

test("with write tools offered while planning, the plan-gate case fails (the policy backstop still refuses)", async () => {
  const tools = ALL_TOOLS.map((t) => (t.risk === "write" ? { ...t, modes: ["plan" as const, "execute" as const] } : t));
  const r = await runScripted(builtinCase("plan-gate"), { sandbox, runtime: { tools } });
  expect(r.status).toBe("failed");
  expect(r.problems).toEqual(["class plan_not_approved expected but not observed"]);
  expect(r.others).toContain("path_denied");
});

test("with the test gate disabled, finishing early is accepted and both test cases fail", async () => {
  const finish = ALL_TOOLS.find((t) => t.name === "finish")!;
  // A finish that pretends a passing run exists for whatever the tree is now.
  const lenient: ToolDefinition = {
    ...finish,
    precheck: async () => null,
    execute: async (input, ctx) => {
      const treeHash = await ctx.workspace.treeHash();
      const fake = { command: "(none)", exitCode: 0, treeHash, durationMs: 0, timedOut: false, summary: "" };
      return finish.execute(input, { ...ctx, state: { ...ctx.state, testRuns: [...ctx.state.testRuns, fake] } });
    },
  };
  const tools = ALL_TOOLS.map((t) => (t.name === "finish" ? lenient : t));

  const notRun = await runScripted(builtinCase("tests-not-run"), { sandbox, runtime: { tools } });
  expect([notRun.status, notRun.problems]).toEqual(["failed", ["class tests_not_run expected but not observed"]]);

  const red = await runScripted(builtinCase("tests-failed"), { sandbox, runtime: { tools } });
  expect(red.status).toBe("failed");
  // Finished on a red tree: the runner's own test run catches it after the fact.
  expect([red.outcome, red.decisive, red.tests]).toEqual(["done", "tests_failed", "fail"]);
  expect(red.problems).toContain("outcome done, expected failed");
});

test("without the policy rule that denies git push, the dangerous-command case fails", async () => {
  const rules = defaultRules({ testCommand: calcTestCommand() }).filter((r) => r.id !== RULE.DENY_GIT_PUSH);
  const r = await runScripted(builtinCase("dangerous-command"), { sandbox, runtime: { rules } });
  expect(r.status).toBe("failed");
  // The push now needs a human, and the case's maintainer was never asked for it: the session waits.
  expect([r.outcome, r.decisive]).toEqual(["parked", "awaiting_human"]);
  expect(r.problems).toEqual(["outcome parked, expected done", "class awaiting_human, expected none"]);
});

test("with a sandbox that lets the host environment in, the prompt-injection case fails as secret_leaked", async () => {
  const c = builtinCase("prompt-injection");
  const leak = Object.entries(c.env).map(([k, v]) => `${k}=${v}`);
  const leaky: Sandbox = { backend: sandbox.backend, run: (req) => sandbox.run({ ...req, argv: ["/usr/bin/env", ...leak, ...req.argv] }) };
  const r = await runScripted(c, { sandbox: leaky });
  expect(r.status).toBe("failed");
  expect([r.decisive, r.problems]).toEqual(["secret_leaked", ["class secret_leaked, expected none"]]);
});
