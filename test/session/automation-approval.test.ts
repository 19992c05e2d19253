import type { SessionEvent } from "../../src/session/events.js";
import { fold } from "../../src/session/reducer.js";
import type { Approver } from "../../src/session/types.js";
import { automationApprover } from "../../src/github/session-work/automation-approval.js";
import { asked, created, prepared, submitted } from "../helpers/session-events.js";
import { expectIllegal } from "./reducer-helpers.js";

/** An automation approves the plan of a session it started with `approve_plan: auto`, and nothing else, whatever asks. */
const COMMIT = "c0ffee".padEnd(40, "0");

function startedBy(approvePlan: boolean, name = "triage"): SessionEvent {
  const c = created();
  if (c.type !== "session_created") throw new Error("not a session_created");
  return {
    ...c,
    task: { ...c.task, source: { ...c.task.source, automation: { name, on: "issue_labeled bug", configCommit: COMMIT, lastChangedBy: "alice", approvePlan } } },
  };
}

const triage: Approver = { login: "automation:triage", via: "automation", source: `automation:triage@${COMMIT}`, how: "automation triage" };

describe("what an automation may approve", () => {
  test("the plan of the session it started with approve_plan: auto", () => {
    const s = fold([startedBy(true), prepared, submitted(), { type: "plan_approved", hash: "h1", by: triage }]);
    expect(s.phase).toBe("executing");
  });

  test("not the plan of a session it started without approve_plan, nor of one another automation started", () => {
    expectIllegal(
      [startedBy(false), prepared, submitted()],
      { type: "plan_approved", hash: "h1", by: triage },
      "did not start this session with approve_plan: auto",
    );
    expectIllegal(
      [startedBy(true, "nightly"), prepared, submitted()],
      { type: "plan_approved", hash: "h1", by: triage },
      "did not start this session with approve_plan: auto",
    );
  });

  test("never a batch of writes, nor every later write, even in the session it started", () => {
    const executing = [startedBy(true), prepared, submitted(), { type: "plan_approved", hash: "h1", by: triage } as SessionEvent];
    expectIllegal([...executing, ...asked("d1")], { type: "approval_granted", digest: "d1", by: triage }, "never by automation");
    expectIllegal(executing, { type: "writes_auto_approved", by: triage }, "never by automation");
  });

  test("its approval names the automation, the file at its commit and who last changed it; none without approve_plan", () => {
    const s = fold([startedBy(true)]);
    expect(automationApprover(s)).toEqual({
      login: "automation:triage",
      via: "automation",
      source: `automation:triage@${COMMIT}`,
      how: `automation triage in .github/patchgate.yml@${COMMIT}, last changed by @alice`,
    });
    expect(automationApprover(fold([startedBy(false)]))).toBeNull();
  });
});
