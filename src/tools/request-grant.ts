import { z } from "zod";
import { createHash } from "node:crypto";
import { parseAllowEntry } from "../sandbox/egress/allow-rule.js";
import { GRANT_KINDS, grantedHosts, type GrantRequestRecord } from "../session/grants.js";
import type { SessionState } from "../session/state.js";
import type { ToolError } from "../session/types.js";
import { defineTool } from "./define-tool.js";
import { fail } from "./tool.js";
import { runTimeouts } from "./support/granted-limits.js";

const DESCRIPTION = `Ask a maintainer for something the sandbox refused that a person may allow, for this session only:
- kind "host": a host your test runs or commands must reach (target "host" or "host:port"); the egress proxy refused it.
- kind "budget": US dollars to add to the session's cost budget (target "2.50"), when the work needs more than it has left.
- kind "time": seconds a test run or command may take (target "900"), when one was stopped at its time limit.
The session waits until a maintainer decides; the decision comes back as this call's result. Ask only when the task cannot be done without it, and say why in reason.`;

const input = z
  .object({
    kind: z.enum(GRANT_KINDS).describe("host, budget or time."),
    target: z.string().trim().min(1).max(253).describe('What to allow: "host" or "host:port"; US dollars to add ("2.50"); seconds per run ("900").'),
    reason: z.string().trim().min(1).max(1000).describe("Why the task needs it, for a maintainer who has not read the session."),
  })
  .strict();

/** The most a single budget grant adds, in US dollars, and the longest a run may be granted (the config's own maximum). */
const MAX_BUDGET_USD = 1000;
const MAX_SECONDS = 3600;

/**
 * The model's way to ask a person for a host, budget or time (session/grants.ts). The call is held,
 * open, until a human decides (`grant_requested`, phase `awaiting_grant`); agent/settle-grant.ts
 * answers it with the decision. Refused at once in an unattended run, where nobody decides.
 */
export const requestGrantTool = defineTool({
  name: "request_grant",
  version: "1",
  description: DESCRIPTION,
  input,
  effect: { risk: "meta", mutatesWorkspace: false, idempotent: true },
  modes: ["execute"],
  request() {
    return { kind: "meta" };
  },
  async execute(args, ctx) {
    if (ctx.state.settings.unattended === true) {
      return { result: fail("grant_denied", "Denied: nobody decides grants in this run (it is unattended). Do the task without it, or report_blocked.") };
    }
    const judged = judgeTarget(args.kind, args.target, ctx.state, ctx.repoConfig);
    if ("code" in judged) return { result: { ok: false, error: judged } };
    const request: GrantRequestRecord = { kind: args.kind, target: judged.target, reason: args.reason, scope: "session" };
    return { result: { ok: true, data: { waiting_for: "grant" } }, grant: { digest: grantDigest(request, ctx.state), request } };
  },
});

/** What an approval binds to: the request and the session's point in it, so approving one request never approves another. */
function grantDigest(request: GrantRequestRecord, s: SessionState): string {
  return createHash("sha256")
    .update(JSON.stringify([s.sessionId, s.eventCount, request.kind, request.target, request.reason]))
    .digest("hex");
}

/** The target in its canonical form, or why it cannot be asked for. */
function judgeTarget(
  kind: GrantRequestRecord["kind"],
  target: string,
  s: SessionState,
  config: Parameters<typeof runTimeouts>[0],
): { target: string } | ToolError {
  if (kind === "host") {
    const entry = parseAllowEntry(target);
    if (entry === null || entry.wildcard) return { code: "invalid_grant", message: `"${target}" is not one host name or host:port (no wildcards).` };
    const host = entry.port === null ? entry.host : `${entry.host.includes(":") ? `[${entry.host}]` : entry.host}:${entry.port}`;
    if (grantedHosts(s.grants).includes(host)) return { code: "already_granted", message: `${host} is already granted to this session.` };
    return { target: host };
  }
  const n = Number(target);
  if (kind === "budget") {
    if (s.settings.limits.maxCostUsd === undefined) return { code: "invalid_grant", message: "This session has no cost budget to raise." };
    if (!(Number.isFinite(n) && n > 0 && n <= MAX_BUDGET_USD))
      return { code: "invalid_grant", message: `"${target}" is not an amount of US dollars between 0 and ${MAX_BUDGET_USD}.` };
    return { target: String(Math.round(n * 100) / 100) };
  }
  if (!(Number.isInteger(n) && n > 0 && n <= MAX_SECONDS))
    return { code: "invalid_grant", message: `"${target}" is not a whole number of seconds up to ${MAX_SECONDS}.` };
  const now = runTimeouts(config, s.grants);
  if (n <= Math.min(now.testSeconds, now.commandSeconds)) {
    return {
      code: "invalid_grant",
      message: `Runs may already take ${now.testSeconds} s (tests) and ${now.commandSeconds} s (commands); ask for more than that.`,
    };
  }
  return { target: String(n) };
}
