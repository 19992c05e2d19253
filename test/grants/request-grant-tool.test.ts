import { requestGrantTool } from "../../src/tools/request-grant.js";
import { RepoConfigSchema } from "../../src/config/repo-config.js";
import { fold } from "../../src/session/reducer.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { approved, created, prepared, submitted } from "../helpers/session-events.js";
import { grantHint, runTimeouts } from "../../src/tools/support/granted-limits.js";

const config = RepoConfigSchema.parse({ test: "npm test", timeouts: { test_seconds: 60, command_seconds: 120 } });

function ctx(opts: { unattended?: boolean; maxCostUsd?: number } = {}): ToolContext {
  const base = created();
  const state = fold([
    {
      ...base,
      settings: {
        ...base.settings,
        limits: opts.maxCostUsd === undefined ? {} : { maxCostUsd: opts.maxCostUsd },
        ...(opts.unattended ? { unattended: true } : {}),
      },
    },
    prepared,
    submitted(),
    approved(),
  ]);
  return { state, repoConfig: config, sandbox: null, workspace: {} as ToolContext["workspace"] };
}

const ask = (args: Record<string, string>, c = ctx()) => requestGrantTool.execute(requestGrantTool.input.parse(args), c);

describe("request_grant", () => {
  test("holds the call for a human with the request in canonical form, for this session only", async () => {
    const out = await ask({ kind: "host", target: "Grant-Target.test.", reason: "the test fetches it" });
    expect(out.grant?.request).toEqual({ kind: "host", target: "grant-target.test", reason: "the test fetches it", scope: "session" });
    expect(out.grant?.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  test("an unattended run is denied at once: nobody decides", async () => {
    const out = await ask({ kind: "host", target: "example.org", reason: "r" }, ctx({ unattended: true }));
    expect(out).toEqual({ result: { ok: false, error: expect.objectContaining({ code: "grant_denied" }) } });
  });

  test.each([
    [{ kind: "host", target: "*.example.org" }, "invalid_grant"],
    [{ kind: "host", target: "not a host" }, "invalid_grant"],
    [{ kind: "budget", target: "5" }, "invalid_grant"],
    [{ kind: "time", target: "30" }, "invalid_grant"],
    [{ kind: "time", target: "99999" }, "invalid_grant"],
  ])("%j is refused (%s): one host, a budget only where the session has one, more time than it has", async (args, code) => {
    const out = await ask({ ...args, reason: "r" });
    expect(out.grant).toBeUndefined();
    expect(out.result).toMatchObject({ ok: false, error: { code } });
  });

  test("a budget is asked in dollars where the session has a cost limit", async () => {
    const out = await ask({ kind: "budget", target: "2.504", reason: "r" }, ctx({ maxCostUsd: 1 }));
    expect(out.grant?.request.target).toBe("2.5");
  });

  test("a time grant raises both run limits to what it grants, never lowers them", () => {
    const grant = { kind: "time" as const, target: "90", reason: "r", scope: "session" as const, digest: "d", by: { login: "b", via: "comment" as const } };
    expect(runTimeouts(config, [grant])).toEqual({ testSeconds: 90, commandSeconds: 120 });
    expect(runTimeouts(config, [])).toEqual({ testSeconds: 60, commandSeconds: 120 });
  });

  test("the hint names the refused host, the time limit, or the missing network", () => {
    const refused = "patchgate-egress: refused CONNECT api.example.org:443: api.example.org:443 is not a package registry\n";
    expect(grantHint({ stdout: "", stderr: refused, timedOut: false }, 60).grant_hint).toContain('target: "api.example.org:443"');
    expect(grantHint({ stdout: "", stderr: "", timedOut: true }, 60).grant_hint).toContain("time limit (60 s)");
    expect(grantHint({ stdout: "Error: getaddrinfo ENOTFOUND api.example.org", stderr: "", timedOut: false }, 60).grant_hint).toContain("no network");
    expect(grantHint({ stdout: "1 failing", stderr: "", timedOut: false }, 60)).toEqual({});
  });
});

describe("a repository cannot grant itself anything through its own files", () => {
  test("a config that declares grants is refused, not read", () => {
    const tries = RepoConfigSchema.safeParse({ test: "npm test", grants: [{ kind: "host", target: "evil.example" }] });
    expect(tries.success).toBe(false);
    const inSandbox = RepoConfigSchema.safeParse({ test: "npm test", sandbox: { granted_hosts: ["evil.example"] } });
    expect(inSandbox.success).toBe(false);
  });
});
