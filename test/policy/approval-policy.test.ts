import { BUILTIN_RULE } from "../../src/policy/builtin-rules.js";
import { evaluate } from "../../src/policy/approval-policy.js";
import { type ActionRequest, type PolicyRule } from "../../src/policy/types.js";

/** The evaluator's own behaviour, with small hand-written rule sets (default rules have their own tests). */
const ctx = { workspaceRoot: "/srv/ws" };
const argv = (...words: string[]): ActionRequest => ({ kind: "command", tool: "run_command", argv: words });
const sh = (text: string): ActionRequest => argv("sh", "-c", text);

const allowLs: PolicyRule = { id: "allow:ls", decision: "allow", kind: "command", command: { program: ["ls"] } };
const allowEcho: PolicyRule = { id: "allow:echo", decision: "allow", kind: "command", command: { program: ["echo"] } };
const askMake: PolicyRule = { id: "ask:make", decision: "ask", kind: "command", command: { program: ["make"] } };
const denyRm: PolicyRule = { id: "deny:rm", decision: "deny", kind: "command", command: { program: ["rm"] } };
const rules = [allowLs, allowEcho, askMake, denyRm];

describe("strictest wins", () => {
  test("no rule matches: ask with default:ask", () => {
    expect(evaluate({ kind: "read", tool: "read_file", path: "a" }, [], "execute", ctx)).toEqual({ decision: "ask", rule: BUILTIN_RULE.DEFAULT_ASK });
  });
  test("deny beats allow among matching rules, whatever the order", () => {
    const allowAll: PolicyRule = { id: "allow:all-writes", decision: "allow", kind: "write" };
    const denySecrets: PolicyRule = { id: "deny:secrets", decision: "deny", kind: "write", paths: ["secrets/**"] };
    const write: ActionRequest = { kind: "write", tool: "write_file", path: "secrets/x.env" };
    expect(evaluate(write, [allowAll, denySecrets], "execute", ctx)).toEqual({ decision: "deny", rule: "deny:secrets" });
    expect(evaluate(write, [denySecrets, allowAll], "execute", ctx)).toEqual({ decision: "deny", rule: "deny:secrets" });
  });
  test("ask beats allow", () => {
    const allowAll: PolicyRule = { id: "allow:writes", decision: "allow", kind: "write" };
    const askSrc: PolicyRule = { id: "ask:src", decision: "ask", kind: "write", paths: ["src/**"] };
    expect(evaluate({ kind: "write", tool: "write_file", path: "src/a.ts" }, [allowAll, askSrc], "execute", ctx)).toEqual({ decision: "ask", rule: "ask:src" });
  });
  test("equal strictness: the earlier rule names the decision", () => {
    const a: PolicyRule = { id: "allow:first", decision: "allow", kind: "read" };
    const b: PolicyRule = { id: "allow:second", decision: "allow", kind: "read" };
    expect(evaluate({ kind: "read", tool: "read_file", path: "x" }, [a, b], "execute", ctx).rule).toBe("allow:first");
  });
  test("tool and mode matchers narrow a rule", () => {
    const onlyGrep: PolicyRule = { id: "allow:search", decision: "allow", kind: "read", tool: "search_code", mode: "execute" };
    expect(evaluate({ kind: "read", tool: "search_code" }, [onlyGrep], "execute", ctx).rule).toBe("allow:search");
    expect(evaluate({ kind: "read", tool: "read_file", path: "a" }, [onlyGrep], "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
    expect(evaluate({ kind: "read", tool: "search_code" }, [onlyGrep], "plan", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
  });
  test("a path rule does not match a request without a path", () => {
    const r: PolicyRule = { id: "deny:docs", decision: "deny", kind: "read", paths: ["docs/**"] };
    expect(evaluate({ kind: "read", tool: "list_files" }, [r], "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
  });
  test("an allow path glob matches case-sensitively, a deny glob does not", () => {
    const allowSrc: PolicyRule = { id: "allow:src", decision: "allow", kind: "write", paths: ["src/**"] };
    const denyVendor: PolicyRule = { id: "deny:vendor", decision: "deny", kind: "write", paths: ["vendor/**"] };
    expect(evaluate({ kind: "write", tool: "write_file", path: "SRC/a.ts" }, [allowSrc], "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
    expect(evaluate({ kind: "write", tool: "write_file", path: "Vendor/a.ts" }, [denyVendor], "execute", ctx).rule).toBe("deny:vendor");
  });
});

describe("argv is judged word for word", () => {
  test("a single allowed command", () => {
    expect(evaluate(argv("ls", "-la"), rules, "execute", ctx)).toEqual({
      decision: "allow",
      rule: "allow:ls",
      parts: [{ command: "ls -la", decision: "allow", rule: "allow:ls" }],
      readOnly: false,
    });
  });
  test("words that would be shell syntax are literal arguments: nothing else runs", () => {
    const d = evaluate(argv("ls", "$(rm x)", ";", "rm", "x", "|", "sh"), rules, "execute", ctx);
    expect(d).toEqual({
      decision: "allow",
      rule: "allow:ls",
      parts: [{ command: "ls '$(rm x)' ';' rm x '|' sh", decision: "allow", rule: "allow:ls" }],
      readOnly: false,
    });
  });
  test("an allow by a read-only rule makes the decision read-only", () => {
    const reader: PolicyRule = { ...allowLs, id: "allow:ls-reader", readOnly: true };
    expect(evaluate(argv("ls"), [reader], "execute", ctx).readOnly).toBe(true);
    expect(evaluate(argv("ls"), [reader, allowLs], "execute", ctx).readOnly).toBe(true);
  });
  test("a wrapper is read-only only when the command inside is", () => {
    const timeout: PolicyRule = { id: "allow:timeout", decision: "allow", kind: "command", command: { program: ["timeout"] }, readOnly: true };
    const reader: PolicyRule = { ...allowLs, id: "allow:ls-reader", readOnly: true };
    expect(evaluate(argv("timeout", "5", "ls"), [timeout, reader], "execute", ctx).readOnly).toBe(true);
    expect(evaluate(argv("timeout", "5", "ls"), [timeout, allowLs], "execute", ctx).readOnly).toBe(false);
  });
  test("a rule with a command matcher never matches a write", () => {
    expect(evaluate({ kind: "write", tool: "write_file", path: "rm" }, [denyRm], "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
  });
  test("a deny rule matches the program through any path", () => {
    expect(evaluate(argv("/bin/rm", "x"), rules, "execute", ctx).rule).toBe("deny:rm");
    expect(evaluate(argv("../../bin/rm", "x"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("an allow rule does not extend to a relative path with the same name", () => {
    expect(evaluate(argv("./ls"), rules, "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
  });
  test("argsPrefix and anyArg matchers", () => {
    const r: PolicyRule[] = [
      { id: "allow:tsc-build", decision: "allow", kind: "command", command: { program: ["tsc"], argsPrefix: ["--build"] } },
      { id: "deny:force", decision: "deny", kind: "command", command: { anyArg: ["--force"] } },
    ];
    expect(evaluate(argv("tsc", "--build"), r, "execute", ctx).rule).toBe("allow:tsc-build");
    expect(evaluate(argv("tsc", "--noEmit"), r, "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
    expect(evaluate(argv("tsc", "--build", "--force"), r, "execute", ctx).rule).toBe("deny:force");
  });
  test.each([[[]], [[""]], [["ls", "a\0b"]]])(`${BUILTIN_RULE.UNPARSEABLE}: argv %j`, (words) => {
    expect(evaluate(argv(...words), rules, "execute", ctx)).toMatchObject({ decision: "deny", rule: BUILTIN_RULE.UNPARSEABLE });
  });
});

describe("an explicit shell is judged part by part and never allowed", () => {
  const inner = (text: string, r: PolicyRule[] = rules) => evaluate(sh(text), r, "execute", ctx).parts?.slice(1);
  test("every command inside is listed, and the shell itself asks", () => {
    expect(evaluate(sh("ls src && echo done"), rules, "execute", ctx)).toEqual({
      decision: "ask",
      rule: BUILTIN_RULE.EXPLICIT_SHELL,
      parts: [
        { command: "sh -c 'ls src && echo done'", decision: "ask", rule: BUILTIN_RULE.EXPLICIT_SHELL },
        { command: "ls src", decision: "allow", rule: "allow:ls" },
        { command: "echo done", decision: "allow", rule: "allow:echo" },
      ],
    });
  });
  test("even a rule that allows everything does not allow a shell", () => {
    const permissive: PolicyRule[] = [{ id: "allow:any", decision: "allow", kind: "command" }];
    expect(evaluate(sh("ls"), permissive, "execute", ctx).rule).toBe(BUILTIN_RULE.EXPLICIT_SHELL);
    expect(evaluate(argv("bash", "script.sh"), permissive, "execute", ctx).rule).toBe(BUILTIN_RULE.EXPLICIT_SHELL);
    expect(evaluate(argv("timeout", "5", "sh", "-c", "ls"), permissive, "execute", ctx).rule).toBe(BUILTIN_RULE.EXPLICIT_SHELL);
  });
  test("pipeline: each stage is a part", () => {
    expect(inner("ls | make")).toEqual([
      { command: "ls", decision: "allow", rule: "allow:ls" },
      { command: "make", decision: "ask", rule: "ask:make" },
    ]);
  });
  test.each([
    "ls && rm -rf build",
    "echo hi; rm x",
    "ls || rm x",
    "rm x & ls",
    "ls\nrm x",
    "(ls; rm x)",
    "echo $(rm x)",
    'echo "$(rm x)"',
    "echo `rm x`",
    "ls # harmless\nrm x",
  ])("a denied command anywhere denies the shell: %j", (text) => {
    expect(evaluate(sh(text), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("a maintainer's configured line (exact) vouches for every command in it, short of a deny", () => {
    const testCommand: PolicyRule = { id: "allow:test-command", decision: "allow", kind: "command", command: { exact: "make  test && frobnicate" } };
    expect(evaluate(sh("make test && frobnicate"), [testCommand], "execute", ctx)).toMatchObject({
      decision: "allow",
      rule: "allow:test-command",
      readOnly: false,
    });
    expect(evaluate(sh("make test && rm x"), [testCommand, denyRm], "execute", ctx).rule).toBe("deny:rm");
    // Only as the plain `sh -c TEXT`: extra positional words are not the configured line.
    expect(evaluate(argv("sh", "-c", "make test && frobnicate", "x"), [testCommand], "execute", ctx).decision).toBe("ask");
  });
});

describe("plan mode", () => {
  test(`${BUILTIN_RULE.PLAN_GATE}: a command is denied while planning, even an allowed one`, () => {
    expect(evaluate(argv("ls"), rules, "plan", ctx)).toEqual({ decision: "deny", rule: BUILTIN_RULE.PLAN_GATE });
  });
  test(`${BUILTIN_RULE.PLAN_GATE}: a write is denied while planning`, () => {
    const allowWrites: PolicyRule = { id: "allow:writes", decision: "allow", kind: "write" };
    expect(evaluate({ kind: "write", tool: "write_file", path: "a" }, [allowWrites], "plan", ctx)).toEqual({ decision: "deny", rule: BUILTIN_RULE.PLAN_GATE });
  });
  test("reads and meta are judged normally while planning", () => {
    const allowReads: PolicyRule = { id: "allow:read", decision: "allow", kind: "read" };
    expect(evaluate({ kind: "read", tool: "read_file", path: "a" }, [allowReads], "plan", ctx).rule).toBe("allow:read");
    expect(evaluate({ kind: "meta", tool: "submit_plan" }, [], "plan", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
  });
});
