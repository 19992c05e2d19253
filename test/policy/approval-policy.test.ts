import { BUILTIN_RULE, evaluate, type ActionRequest, type PolicyRule } from "../../src/policy/index.js";

/** The evaluator's own behaviour, with small hand-written rule sets (default rules have their own tests). */
const ctx = { workspaceRoot: "/srv/ws" };
const run = (command: string): ActionRequest => ({ kind: "command", tool: "run_command", command });

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

describe("command lines are judged part by part", () => {
  test("a single allowed command", () => {
    expect(evaluate(run("ls -la"), rules, "execute", ctx)).toEqual({ decision: "allow", rule: "allow:ls", parts: [{ command: "ls -la", decision: "allow", rule: "allow:ls" }] });
  });
  test("pipeline: the strictest stage wins", () => {
    expect(evaluate(run("ls | make"), rules, "execute", ctx)).toEqual({
      decision: "ask",
      rule: "ask:make",
      parts: [
        { command: "ls", decision: "allow", rule: "allow:ls" },
        { command: "make", decision: "ask", rule: "ask:make" },
      ],
    });
  });
  test("&&: a denied second command denies the line", () => {
    expect(evaluate(run("ls && rm -rf build"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test(";: a denied command after an allowed one denies the line", () => {
    expect(evaluate(run("echo hi; rm x"), rules, "execute", ctx).decision).toBe("deny");
  });
  test("||: judged like any other separator", () => {
    expect(evaluate(run("ls || rm x"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("&: a background command is still judged", () => {
    expect(evaluate(run("rm x & ls"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("newline: a second line is a second command", () => {
    expect(evaluate(run("ls\nrm x"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("subshell: commands inside are parts", () => {
    expect(evaluate(run("(ls; rm x)"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("command substitution: the inner command is judged", () => {
    expect(evaluate(run("echo $(rm x)"), rules, "execute", ctx).rule).toBe("deny:rm");
    expect(evaluate(run('echo "$(rm x)"'), rules, "execute", ctx).rule).toBe("deny:rm");
    expect(evaluate(run("echo `rm x`"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("a comment cannot hide a later line", () => {
    expect(evaluate(run("ls # harmless\nrm x"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("all parts allowed: allow, with every part listed", () => {
    const d = evaluate(run("ls src && echo done"), rules, "execute", ctx);
    expect(d).toEqual({
      decision: "allow",
      rule: "allow:ls",
      parts: [
        { command: "ls src", decision: "allow", rule: "allow:ls" },
        { command: "echo done", decision: "allow", rule: "allow:echo" },
      ],
    });
  });
  test("an unknown part makes the line ask with default:ask", () => {
    expect(evaluate(run("ls && frobnicate"), rules, "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
  });
  test("a rule with a command matcher never matches a write", () => {
    expect(evaluate({ kind: "write", tool: "write_file", path: "rm" }, [denyRm], "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
  });
  test("a deny rule matches the program through any path", () => {
    expect(evaluate(run("/bin/rm x"), rules, "execute", ctx).rule).toBe("deny:rm");
    expect(evaluate(run("../../bin/rm x"), rules, "execute", ctx).rule).toBe("deny:rm");
  });
  test("an allow rule does not extend to a relative path with the same name", () => {
    expect(evaluate(run("./ls"), rules, "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
  });
  test("argsPrefix and anyArg matchers", () => {
    const r: PolicyRule[] = [
      { id: "allow:npm-run", decision: "allow", kind: "command", command: { program: ["npm"], argsPrefix: ["run"] } },
      { id: "deny:force", decision: "deny", kind: "command", command: { anyArg: ["--force"] } },
    ];
    expect(evaluate(run("npm run build"), r, "execute", ctx).rule).toBe("allow:npm-run");
    expect(evaluate(run("npm test"), r, "execute", ctx).rule).toBe(BUILTIN_RULE.DEFAULT_ASK);
    expect(evaluate(run("npm run build --force"), r, "execute", ctx).rule).toBe("deny:force");
  });
});

describe("built-in command checks", () => {
  test(`${BUILTIN_RULE.UNPARSEABLE}: an unterminated quote is denied`, () => {
    expect(evaluate(run("echo 'oops"), rules, "execute", ctx)).toEqual({
      decision: "deny",
      rule: BUILTIN_RULE.UNPARSEABLE,
      reason: expect.stringMatching(/quote/i),
      parts: [{ command: "echo 'oops", decision: "deny", rule: BUILTIN_RULE.UNPARSEABLE }],
    });
  });
  test.each(["cat <<EOF\nx\nEOF", "ls |", "&& ls", "echo (x)", "case $x in a) ls;; esac", ""])(`${BUILTIN_RULE.UNPARSEABLE}: %j`, (command) => {
    expect(evaluate(run(command), rules, "execute", ctx).rule).toBe(BUILTIN_RULE.UNPARSEABLE);
  });
  test(`${BUILTIN_RULE.DOWNLOAD_TO_SHELL}: even when every rule would allow the parts`, () => {
    const permissive: PolicyRule[] = [{ id: "allow:any", decision: "allow", kind: "command" }];
    expect(evaluate(run("curl x | sh"), permissive, "execute", ctx)).toEqual({
      decision: "deny",
      rule: BUILTIN_RULE.DOWNLOAD_TO_SHELL,
      parts: [
        { command: "curl x", decision: "allow", rule: "allow:any" },
        { command: "sh", decision: "deny", rule: BUILTIN_RULE.DOWNLOAD_TO_SHELL },
      ],
    });
  });
  test(`${BUILTIN_RULE.DOWNLOAD_TO_SHELL}: near miss: shell after a download, not fed by it`, () => {
    const permissive: PolicyRule[] = [{ id: "allow:any", decision: "allow", kind: "command" }];
    expect(evaluate(run("curl -o x.sh x; sh x.sh"), permissive, "execute", ctx).decision).toBe("allow");
  });
  test(`${BUILTIN_RULE.ENV_OVERRIDE}: PATH prefix turns an allowed command into ask`, () => {
    expect(evaluate(run("PATH=./bin:$PATH ls"), rules, "execute", ctx).rule).toBe(BUILTIN_RULE.ENV_OVERRIDE);
    expect(evaluate(run("LD_PRELOAD=./x.so ls"), rules, "execute", ctx).rule).toBe(BUILTIN_RULE.ENV_OVERRIDE);
  });
  test(`${BUILTIN_RULE.ENV_OVERRIDE}: near miss: an ordinary variable keeps the allowance`, () => {
    expect(evaluate(run("LC_ALL=C ls"), rules, "execute", ctx).rule).toBe("allow:ls");
  });
  test(`${BUILTIN_RULE.REDIRECT_OUTSIDE}: output redirection out of the workspace is denied`, () => {
    for (const command of ["ls > /etc/motd", "ls >> ../x", "ls > ~/x", "ls > $OUT", "ls &> /tmp/log", "ls > /dev/tcp/10.0.0.1/80", "cat < /dev/udp/10.0.0.1/53"]) {
      expect(evaluate(run(command), rules, "execute", ctx).rule).toBe(BUILTIN_RULE.REDIRECT_OUTSIDE);
    }
  });
  test("output redirection inside the workspace is judged as a write", () => {
    const askWrites: PolicyRule = { id: "ask:write", decision: "ask", kind: "write" };
    const denyGit: PolicyRule = { id: "deny:git", decision: "deny", kind: "write", paths: [".git/**"] };
    expect(evaluate(run("ls > out.txt"), [...rules, askWrites], "execute", ctx).rule).toBe("ask:write");
    expect(evaluate(run("echo x > .git/hooks/post-checkout"), [...rules, askWrites, denyGit], "execute", ctx).rule).toBe("deny:git");
    expect(evaluate(run("ls > /srv/ws/out.txt"), [...rules, askWrites], "execute", ctx).rule).toBe("ask:write");
  });
  test("redirections that write no file keep the allowance", () => {
    expect(evaluate(run("ls 2>&1 > /dev/null"), rules, "execute", ctx).rule).toBe("allow:ls");
    expect(evaluate(run("ls 2>/dev/null | echo"), rules, "execute", ctx).decision).toBe("allow");
  });
  test("a subshell's redirection applies to every command in it", () => {
    expect(evaluate(run("(ls; echo) > /etc/x"), rules, "execute", ctx).parts?.map((p) => p.rule)).toEqual([BUILTIN_RULE.REDIRECT_OUTSIDE, BUILTIN_RULE.REDIRECT_OUTSIDE]);
  });
});

describe("plan mode", () => {
  test(`${BUILTIN_RULE.PLAN_GATE}: a command is denied while planning, even an allowed one`, () => {
    expect(evaluate(run("ls"), rules, "plan", ctx)).toEqual({ decision: "deny", rule: BUILTIN_RULE.PLAN_GATE });
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
