import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { approvePlan, autoApproveWrites } from "../../src/agent/approvals.js";
import { handleCall } from "../../src/agent/call-handler.js";
import type { CallEnv } from "../../src/agent/call-env.js";
import { publishToLocalBranch } from "../../src/publish/local-branch.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import { defaultRules } from "../../src/policy/default-rules.js";
import { type PolicyRule } from "../../src/policy/types.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { planHash } from "../../src/tools/support/plan-hash.js";
import { SessionHarness } from "../helpers/session-harness.js";

/**
 * The publication invariant, for any sequence: whatever file-tool writes, allowed commands (creating,
 * modifying and deleting tracked, untracked and ignored files) and test runs happen, the published
 * commit is the base plus exactly the file-tool writes, each with its last content. The commands run
 * under a rule that wrongly allows them, writable; the test command itself changes files too.
 */
const BASE: Record<string, string> = {
  ".gitignore": "build/\n*.log\n",
  "README.md": "# base\n",
  "src/a.txt": "a\n",
  "src/b.txt": "b\n",
  // The maintainer's test: it passes, and leaves changes behind in every kind of file.
  "check.js":
    "const fs = require('fs'); fs.writeFileSync('src/a.txt', 'test run\\n'); fs.writeFileSync('test-output.txt', 'x\\n'); fs.mkdirSync('build', { recursive: true }); fs.writeFileSync('build/test.log', 'log\\n'); fs.rmSync('src/b.txt', { force: true });\n",
};
const PATHS = ["README.md", "src/a.txt", "src/b.txt", "new/n1.txt", "n2.txt", "build/out.txt", "cache.log"];
const MUTATE =
  "const fs = require('fs'); const path = require('path'); for (const [op, p, c] of JSON.parse(process.argv[1])) { if (op === 'rm') fs.rmSync(p, { force: true, recursive: true }); else { fs.mkdirSync(path.dirname(p), { recursive: true }); op === 'write' ? fs.writeFileSync(p, c) : fs.appendFileSync(p, c); } }";

// A wrong rule: every node command is allowed, with the workspace writable.
const WRONG: PolicyRule = { id: "allow:wrong-node", decision: "allow", kind: "command", command: { program: ["node"] } };

type Step = { kind: "write"; path: string; content: string } | { kind: "command"; ops: [string, string, string][] } | { kind: "test" };

const content = fc.stringMatching(/^[a-z0-9 ]{0,12}\n?$/);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("write" as const), path: fc.constantFrom(...PATHS), content }),
  fc.record({
    kind: fc.constant("command" as const),
    ops: fc.array(fc.tuple(fc.constantFrom("write", "append", "rm"), fc.constantFrom(...PATHS), content), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant("test" as const) }),
);

const who = { login: "maintainer", via: "cli" as const };
let calls = 0;

async function run(h: SessionHarness, env: CallEnv, name: string, args: unknown): Promise<void> {
  const call = { id: `c${++calls}`, name, arguments: JSON.stringify(args) };
  // Every call is one the model made: the ledger refuses a result for a call no turn opened.
  await h.ledger.append({ type: "assistant_message", content: null, toolCalls: [call] });
  const outcome = await handleCall(call, env);
  if (outcome.kind !== "answered") throw new Error(`${name} parked on ${outcome.pending.rule}`);
}

function committedFiles(root: string, commit: string): Record<string, string> {
  const names = execFileSync("git", ["ls-tree", "-r", "-z", "--name-only", commit], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  return Object.fromEntries(names.map((n) => [n, execFileSync("git", ["show", `${commit}:${n}`], { cwd: root, encoding: "utf8" })]));
}

test("the published tree is the base plus the file-tool writes, always", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
      const h = await SessionHarness.create(BASE);
      try {
        const plan = { summary: "p", steps: ["s"] };
        await h.ledger.append({ type: "plan_submitted", plan, hash: planHash(plan) });
        await approvePlan(h.ledger, who, planHash(plan));
        await autoApproveWrites(h.ledger, who);
        const repoConfig = { ...DEFAULT_REPO_CONFIG, test: "node check.js" };
        const env: CallEnv = {
          ledger: h.ledger,
          tools: ALL_TOOLS,
          rules: [...defaultRules({ testCommand: repoConfig.test }), WRONG],
          context: () => ({ workspace: h.workspace, state: h.ledger.state, sandbox: h.sandbox, repoConfig }),
        };
        const expected: Record<string, string> = { ...BASE };
        for (const s of steps) {
          if (s.kind === "write") {
            await run(h, env, "read_file", { path: s.path }); // an existing file must be read first
            await run(h, env, "write_file", { path: s.path, content: s.content });
            expected[s.path] = s.content;
          } else if (s.kind === "command") {
            await run(h, env, "run_command", { argv: ["node", "-e", MUTATE, JSON.stringify(s.ops)] });
          } else {
            await run(h, env, "run_tests", {});
          }
        }
        await run(h, env, "run_tests", {});
        await run(h, env, "finish", { summary: "done" });
        expect(h.ledger.state.phase).toBe("publishing");
        await publishToLocalBranch(h.ledger, h.workspace, { prefix: "pg/", author: { name: "P", email: "p@x" }, trailer: "t" });
        const commit = h.ledger.state.published?.commit;
        expect(commit).toBeDefined();
        expect(committedFiles(h.workspace.root, commit!)).toEqual(expected);
      } finally {
        await h.dispose();
      }
    }),
    { numRuns: Number(process.env.PATCHGATE_PROPERTY_RUNS ?? 12) },
  );
}, 600_000);
