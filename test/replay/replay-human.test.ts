import type { HumanDecision } from "../../src/eval/replay/recording.js";
import { ReplayHuman } from "../../src/eval/replay/replay-human.js";
import { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import type { SessionStore } from "../../src/store/types.js";
import { alice, approvedPlan, start } from "../helpers/session-events.js";

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
    { type: "approval_requested", digest: "d1", calls: [{ callId: "c1", tool: "write_file", input: { path: "a" }, preview: "+a", rule: "ask:write" }] },
  );
  return ledger;
}

const at = (seq: number, d: Record<string, unknown>) => ({ ...d, seq, at: "2026-01-01T00:00:00Z" }) as HumanDecision;

describe("the recorded human of a replay", () => {
  test("gives the recorded plan approval, by the recorded approver, when the replay's plan has the recorded hash", async () => {
    const ledger = await planPark();
    const human = new ReplayHuman([at(9, { type: "plan_approved", hash: "h1", by: alice })]);
    expect(await human.answer(ledger, "awaiting_plan_approval")).toBe("replay: plan approved");
    expect({ phase: ledger.state.phase, approved: ledger.state.approvedPlanHash }).toEqual({ phase: "executing", approved: "h1" });
    const last = (await store.load(ledger.sessionId)).at(-1);
    expect(last?.type === "plan_approved" && last.by).toEqual(alice);
    expect(human.mismatch).toBeNull();
  });

  test("leaves the session parked and says why when the replay's batch has another digest", async () => {
    const ledger = await writePark();
    const human = new ReplayHuman([at(12, { type: "approval_granted", digest: "d0", by: alice })]);
    expect(await human.answer(ledger, "awaiting_write_approval")).toBeNull();
    expect(ledger.state.pending?.status).toBe("pending");
    expect(human.mismatch).toEqual({ seq: 12, recorded: "approval_granted for d0", replayed: "awaiting_write_approval for d1" });
  });

  test("a decision for another kind of park is not given, and nothing is after it", async () => {
    const ledger = await planPark();
    const human = new ReplayHuman([
      at(7, { type: "approval_denied", digest: "d1", by: alice, reason: "no" }),
      at(8, { type: "plan_approved", hash: "h1", by: alice }),
    ]);
    expect(await human.answer(ledger, "awaiting_plan_approval")).toBeNull();
    expect(await human.answer(ledger, "awaiting_plan_approval")).toBeNull();
    expect(human.mismatch).toEqual({ seq: 7, recorded: "approval_denied for d1", replayed: "awaiting_plan_approval" });
    expect(ledger.state.phase).toBe("awaiting_plan_approval");
  });

  test("with no recorded decision left, the session stays parked as the recording did", async () => {
    const ledger = await planPark();
    const human = new ReplayHuman([]);
    expect(await human.answer(ledger, "awaiting_plan_approval")).toBeNull();
    expect(human.mismatch).toBeNull();
  });
});
