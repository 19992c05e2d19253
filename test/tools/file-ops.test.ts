import { batchDigest } from "../../src/agent/batch-digest.js";
import { evaluate } from "../../src/policy/approval-policy.js";
import { checkEditContext } from "../../src/policy/edit-context.js";
import { defaultRules } from "../../src/policy/default-rules.js";
import { withFileToolHint } from "../../src/policy/shell/file-op-commands.js";
import { applyStandingAnswers } from "../../src/policy/standing-answers.js";
import type { ActionRequest } from "../../src/policy/types.js";
import { IllegalTransitionError } from "../../src/session/errors.js";
import type { SessionEvent } from "../../src/session/events.js";
import { DELETED_CONTENT } from "../../src/session/publishable.js";
import { fold } from "../../src/session/reducer.js";
import { toExecuting } from "../helpers/session-events.js";

const rules = defaultRules({ testCommand: "npm test", protectedPaths: ["secrets/**"] });
const move = (from: string, to: string): ActionRequest => ({ kind: "write", tool: "move_file", path: to, from });
const del = (path: string): ActionRequest => ({ kind: "write", tool: "delete_file", path });
const judge = (r: ActionRequest) => {
  const d = evaluate(r, rules, "execute", { workspaceRoot: "/srv/ws" });
  return `${d.decision} ${d.rule}`;
};

describe("delete and move: the policy judges them as writes", () => {
  test("an ordinary delete or move asks, like a write", () => {
    expect([judge(del("src/a.ts")), judge(move("src/a.ts", "src/b.ts"))]).toEqual(["ask ask:write", "ask ask:write"]);
  });

  test.each([".github/workflows/ci.yml", ".github/patchgate.yml", ".gitmodules", ".git/config", "secrets/key.txt"])(
    "%s: deleting it, moving onto it and moving it away are each denied",
    (governed) => {
      expect([judge(del(governed)), judge(move("src/a.ts", governed)), judge(move(governed, "src/a.ts"))]).toEqual([
        "deny deny:protected-path",
        "deny deny:protected-path",
        "deny deny:protected-path",
      ]);
    },
  );

  test("while planning a move is denied by the plan gate, whichever end", () => {
    expect(evaluate(move("a", "b"), rules, "plan", { workspaceRoot: "/srv/ws" }).decision).toBe("deny");
  });

  test("an allow for one end never loosens the other: the stricter verdict of both ends wins", () => {
    const loose = [...rules, { id: "allow:docs", decision: "allow" as const, kind: "write" as const, paths: ["docs/**"] }];
    const verdict = (r: ActionRequest) => evaluate(r, loose, "execute", { workspaceRoot: "/srv/ws" });
    expect(verdict(move("docs/a.md", "docs/b.md")).rule).toBe("ask:write");
    const docsOnly = [{ id: "allow:docs", decision: "allow" as const, kind: "write" as const, paths: ["docs/**"] }];
    const only = (r: ActionRequest) => evaluate(r, docsOnly, "execute", { workspaceRoot: "/srv/ws" });
    expect([only(move("docs/a.md", "docs/b.md")).decision, only(move("docs/a.md", "src/b.md")).decision, only(move("src/a.md", "docs/b.md")).decision]).toEqual(
      ["allow", "ask", "ask"],
    );
  });

  test("pre-approved writes cover a delete and a move; a denied end stays denied", () => {
    const answers = { autoApproveWrites: true, unattended: true };
    const standing = (r: ActionRequest) => applyStandingAnswers(evaluate(r, rules, "execute", { workspaceRoot: "/srv/ws" }), r, answers).decision;
    expect([standing(del("a.ts")), standing(move("a.ts", "b.ts")), standing(move(".github/workflows/x.yml", "b.yml"))]).toEqual(["allow", "allow", "deny"]);
  });
});

describe("a command that deletes or moves files points at the file tools", () => {
  const cmd = (argv: string[]): ActionRequest => ({ kind: "command", tool: "run_command", argv });
  test.each([
    [["rm", "a.ts"], "delete_file"],
    [["/bin/rm", "-f", "a.ts"], "delete_file"],
    [["git", "rm", "a.ts"], "delete_file"],
    [["mv", "a.ts", "b.ts"], "move_file"],
    [["git", "-C", ".", "mv", "a.ts", "b.ts"], "move_file"],
  ])("%j → %s", (argv, tool) => {
    expect(withFileToolHint("Refused", cmd(argv))).toMatch(new RegExp(`^Refused\\. To (delete|move) a file use ${tool} `));
  });

  test("any other command, or a write, is left as it was", () => {
    expect([
      withFileToolHint("Refused", cmd(["ls", "-la"])),
      withFileToolHint("Refused", cmd(["git", "status"])),
      withFileToolHint("Refused", del("a")),
    ]).toEqual(["Refused", "Refused", "Refused"]);
  });
});

describe("the batch digest covers deletes and moves", () => {
  const call = (tool: string, input: unknown) => ({ callId: "c1", tool, input, preview: "", rule: "ask:write", toolVersion: "1" });
  test("another source, destination or path is another digest", () => {
    const digests = [
      batchDigest([call("move_file", { from: "a.ts", to: "b.ts" })]),
      batchDigest([call("move_file", { from: "a.ts", to: "c.ts" })]),
      batchDigest([call("move_file", { from: "x.ts", to: "b.ts" })]),
      batchDigest([call("delete_file", { path: "a.ts" })]),
      batchDigest([call("delete_file", { path: "b.ts" })]),
    ];
    expect(new Set(digests).size).toBe(5);
  });
});

describe("the reducer folds deletes and moves", () => {
  const read = (path: string, hash: string): SessionEvent => ({ type: "file_read", path, hash });

  test("a delete makes the path publishable as deleted and forgets what was known of it", () => {
    const s = fold([...toExecuting(), read("a.ts", "h1"), { type: "file_deleted", path: "a.ts", hash: "h1" }]);
    expect([s.publishablePaths, s.writtenHashes, s.fileContexts]).toEqual([["a.ts"], { "a.ts": DELETED_CONTENT }, {}]);
  });

  test("a move publishes both ends and carries what was seen of the content to the new path", () => {
    const s = fold([
      ...toExecuting(),
      { type: "file_read", path: "a.ts", hash: "h1", lines: [1, 300], totalLines: 900 },
      { type: "file_moved", from: "a.ts", to: "lib/a.ts", hash: "h1" },
    ]);
    expect(s.publishablePaths).toEqual(["a.ts", "lib/a.ts"]);
    expect(s.writtenHashes).toEqual({ "a.ts": DELETED_CONTENT, "lib/a.ts": "h1" });
    expect(s.fileContexts).toEqual({ "lib/a.ts": { hash: "h1", step: 0, seen: [[1, 300]] } });
  });

  test("an edit at the new path passes the edit context; the old path has none, so a file that appears there must be read", () => {
    const s = fold([...toExecuting(), read("a.ts", "h1"), { type: "file_moved", from: "a.ts", to: "b.ts", hash: "h1" }]);
    expect(checkEditContext(s.fileContexts, "b.ts", "h1")).toBeNull();
    expect(checkEditContext(s.fileContexts, "a.ts", "h1")?.details).toEqual({ path: "a.ts", reason: "never_read" });
  });

  test("a stale context (the file changed since it was read) does not travel with the move", () => {
    const s = fold([...toExecuting(), read("a.ts", "old"), { type: "file_moved", from: "a.ts", to: "b.ts", hash: "new" }]);
    expect(s.fileContexts).toEqual({});
    expect(checkEditContext(s.fileContexts, "b.ts", "new")?.details).toEqual({ path: "b.ts", reason: "never_read" });
  });

  test("a move over a path known before drops that path's old context", () => {
    const s = fold([...toExecuting(), read("b.ts", "hb"), { type: "file_moved", from: "a.ts", to: "b.ts", hash: "ha" }]);
    expect(s.fileContexts).toEqual({});
  });

  test("executable configuration flagged without a batch approved for it is refused", () => {
    const events: SessionEvent[][] = [
      [{ type: "file_deleted", path: ".gitlab-ci.yml", hash: "h", executableConfig: true }],
      [{ type: "file_moved", from: ".gitlab-ci.yml", to: "ci.yml", hash: "h", executableConfig: true }],
    ];
    for (const e of events) expect(() => fold([...toExecuting(), ...e])).toThrow(IllegalTransitionError);
  });

  test("a move onto itself is illegal", () => {
    expect(() => fold([...toExecuting(), { type: "file_moved", from: "a.ts", to: "a.ts", hash: "h" }])).toThrow(/onto itself/);
  });
});
