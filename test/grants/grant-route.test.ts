import { parseCommand } from "../../src/github/inbound/command.js";
import type { Intent, Thread } from "../../src/github/inbound/intent.js";
import { route } from "../../src/github/session-work/route.js";
import { emptyState } from "../../src/session/empty-state.js";
import type { SessionState } from "../../src/session/state.js";
import type { Phase } from "../../src/session/types.js";

/** Which human word decides a waiting grant request, and that none of them does in another phase. */
const PR: Thread = { number: 9, isPullRequest: true, title: "Patchgate: parser", body: "Patchgate's plan" };
const AT = "2026-01-02T03:04:05Z";
const command = (body: string): Intent => ({ kind: "command", command: parseCommand(body)!, thread: PR, commentId: 41, at: AT });
const review: Intent = { kind: "review", state: "approved", body: "", commitId: "c0ffee", reviewId: 5, thread: PR, at: AT };
const label: Intent = { kind: "label", label: "agent:grant-approved", thread: PR, headSha: null, at: AT };
const button: Intent = { kind: "button", identifier: "grant:0123456789abcd", checkRunId: 3, at: AT };
const session = (phase: Phase): SessionState =>
  ({ ...emptyState(), phase, task: { title: "t", body: "b", source: { kind: "github", repo: "o/r", issueNumber: 7 } } }) as SessionState;

test("while a grant request waits, a comment, a review, the label and the Allow button each decide it", () => {
  const s = session("awaiting_grant");
  const act = { at: AT, commentId: 41 };
  expect(route(command("/agent approve"), s)).toEqual({ kind: "decideGrant", via: "comment", digest: { by: "comment", ref: null, act } });
  expect(route(command("/agent approve 0123456789ab"), s)).toEqual({
    kind: "decideGrant",
    via: "comment",
    digest: { by: "comment", ref: "0123456789ab", act },
  });
  expect(route(command("/agent deny not here"), s)).toEqual({
    kind: "decideGrant",
    via: "comment",
    digest: { by: "comment", ref: null, act },
    deny: "not here",
  });
  expect(route(review, s)).toEqual({ kind: "decideGrant", via: "review", digest: { by: "time", at: AT } });
  expect(route(label, s)).toEqual({ kind: "decideGrant", via: "label", digest: { by: "time", at: AT } });
  expect(route(button, s)).toEqual({ kind: "decideGrant", via: "check_run", digest: { by: "button", identifier: "grant:0123456789abcd" } });
});

test.each(["executing", "awaiting_write_approval", "awaiting_plan_approval", "done"] as const)("in %s no word becomes a grant decision", (phase) => {
  const s = session(phase);
  for (const i of [command("/agent approve"), command("/agent deny no"), review, label]) expect(route(i, s).kind).not.toBe("decideGrant");
});
