import { approvalParkKind } from "../../src/eval/approval-schema.js";
import { EVAL_APPROVER, ScriptedHuman } from "../../src/eval/scripted-human.js";
import { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import type { SessionStore } from "../../src/store/types.js";
import { approvedPlan, start } from "../helpers/session-events.js";

let store: SessionStore;
beforeEach(() => {
  store = SqliteSessionStore.open(":memory:");
});
afterEach(() => store.close());

let sessions = 0;

/** A real ledger parked on a plan (hash h1). */
async function planPark(): Promise<Ledger> {
  const [created, ...rest] = start(`s${++sessions}`);
  const ledger = await Ledger.create(store, created as Extract<typeof created, { type: "session_created" }>);
  await ledger.append(...rest, { type: "plan_submitted", plan: { summary: "p", steps: ["a"] }, hash: "h1" });
  return ledger;
}

/** A real ledger parked on a write batch (digest d1). */
async function writePark(): Promise<Ledger> {
  const ledger = await planPark();
  await ledger.append(
    approvedPlan()[1],
    { type: "assistant_message", content: null, toolCalls: [{ id: "c1", name: "write_file", arguments: '{"path":"a"}' }] },
    {
      type: "approval_requested",
      digest: "d1",
      calls: [{ callId: "c1", tool: "write_file", input: { path: "a" }, preview: "+a", rule: "ask:write" }],
    },
  );
  return ledger;
}

describe("scripted human", () => {
  test("answers a plan park with the approval bound to the current plan hash", async () => {
    const ledger = await planPark();
    const human = new ScriptedHuman([{ action: "approve_plan" }], "stop");
    expect(await human.answer(ledger, "awaiting_plan_approval")).toBe("plan approved");
    expect(ledger.history.at(-1)).toMatchObject({ type: "plan_approved", hash: "h1", by: EVAL_APPROVER });
  });

  test("revise, deny and approve-all are recorded as the runtime's own events", async () => {
    const revised = await planPark();
    await new ScriptedHuman([{ action: "revise", feedback: "add a test" }], "stop").answer(revised, "awaiting_plan_approval");
    expect(revised.history.at(-1)).toMatchObject({ type: "plan_revision_requested", feedback: "add a test" });

    const denied = await writePark();
    await new ScriptedHuman([{ action: "deny_writes", reason: "no" }], "stop").answer(denied, "awaiting_write_approval");
    expect(denied.history.at(-1)).toMatchObject({ type: "approval_denied", digest: "d1", reason: "no" });

    const all = await writePark();
    await new ScriptedHuman([{ action: "approve_all_writes" }], "stop").answer(all, "awaiting_write_approval");
    expect(all.history.slice(-2).map((e) => e.type)).toEqual(["writes_auto_approved", "approval_granted"]);
    expect(all.state.autoApproveWrites).toBe(true);
  });

  test("an approval that does not fit the park leaves it parked under `stop`, with a note", async () => {
    const ledger = await writePark();
    const human = new ScriptedHuman([{ action: "approve_plan" }], "stop");
    expect(await human.answer(ledger, "awaiting_write_approval")).toBeNull();
    expect(human.notes).toEqual(["left parked at writes park 1: the next scripted approval is approve_plan"]);
    expect(ledger.state.phase).toBe("awaiting_write_approval");
  });

  test("under `approve` the fallback approves what waits when the script has run out", async () => {
    const ledger = await writePark();
    expect(await new ScriptedHuman([], "approve").answer(ledger, "awaiting_write_approval")).toBe("writes approved");
    expect(ledger.state.pending?.status).toBe("approved");
  });

  test("a restart is due right after answering a listed park, and only then", async () => {
    const ledger = await planPark();
    const human = new ScriptedHuman([{ action: "approve_plan" }], "stop", [1]);
    expect(human.restartDue).toBe(false);
    expect(await human.answer(ledger, "awaiting_plan_approval")).toBe("plan approved");
    // The answer is stored before the runner restarts: the new process finds it in the ledger.
    expect(human.restartDue).toBe(true);
    expect(ledger.state.phase).toBe("executing");
    expect(new ScriptedHuman([{ action: "approve_plan" }], "stop", [2]).restartDue).toBe(false);
  });

  test("park kinds of approvals", () => {
    expect(approvalParkKind({ action: "revise", feedback: "x" })).toBe("plan");
    expect(approvalParkKind({ action: "approve_all_writes" })).toBe("writes");
  });
});
