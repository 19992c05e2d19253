import { ConcurrentAppendError, type SessionStore } from "../../src/store/types.js";
import { canonicalJson } from "../../src/session/canonical-json.js";
import { genesisHash, linkHash, verifyLedgerChain } from "../../src/store/ledger-chain.js";
import type { SessionEvent } from "../../src/session/events.js";
import { created, llmCalled, prepared, submitted, toExecuting } from "../helpers/session-events.js";

/**
 * What every SessionStore promises, run against each implementation (SQLite and PostgreSQL) by
 * its own test file. A fixture is one empty database per test; `open()` is another connection to
 * it — another process, as far as the store can tell.
 */
export interface StoreFixture {
  open(): SessionStore;
  cleanup(): Promise<void>;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** An event JSON.stringify cannot serialise (BigInt throws). */
const unserialisable = { type: "user_message", content: 1n } as unknown as SessionEvent;
const d = (id: string, event = "issue_comment") => ({ id, event, payload: JSON.stringify({ action: "created", n: id }) });

export function describeStoreContract(makeFixture: () => Promise<StoreFixture>): void {
  let fixture: StoreFixture;
  let opened: SessionStore[];
  let store: SessionStore;
  const open = (): SessionStore => {
    const s = fixture.open();
    opened.push(s);
    return s;
  };

  beforeEach(async () => {
    fixture = await makeFixture();
    opened = [];
    store = open();
  });

  afterEach(async () => {
    for (const s of opened) await s.close().catch(() => undefined);
    await fixture.cleanup();
  });

  describe("append and load", () => {
    test("events come back in seq order from 0 with the time they were appended", async () => {
      const stored = await store.append("s1", [created(), prepared], { phase: "planning" });
      const more = await store.append("s1", [submitted()], { phase: "awaiting_plan_approval" });
      expect(stored.map((e) => e.seq)).toEqual([0, 1]);
      expect(more.map((e) => e.seq)).toEqual([2]);
      expect(stored[0].at).toMatch(ISO);
      const loaded = await store.load("s1");
      expect(loaded).toEqual([...stored, ...more]);
      expect(loaded.map(({ seq: _s, at: _a, ...e }) => e)).toEqual([created(), prepared, submitted()]);
    });

    test("an unknown session loads as no events; an empty append stores nothing", async () => {
      expect(await store.load("nope")).toEqual([]);
      expect(await store.append("nope", [], { expectedCount: 0, phase: "queued" })).toEqual([]);
      expect(await store.list()).toEqual([]);
    });

    test("sessions do not see each other's events", async () => {
      await store.append("s1", [created("s1")], { phase: "queued" });
      await store.append("s2", [created("s2")], { phase: "queued" });
      expect((await store.load("s2")).map((e) => [e.seq, e.type === "session_created" && e.sessionId])).toEqual([[0, "s2"]]);
    });

    test("text that JSON and SQL find awkward comes back byte for byte", async () => {
      const odd = { type: "user_message", content: "quote ' and \" and \\ and \u0001 and ünïcödé 🚀 and $1 and \n--" } as unknown as SessionEvent;
      await store.append("s1", [created(), odd], { phase: "queued" });
      expect((await open().load("s1"))[1]).toMatchObject(odd);
    });
  });

  describe("atomicity", () => {
    test("a batch with an event that fails to serialise leaves nothing, not even the session row", async () => {
      await expect(store.append("s1", [created(), unserialisable], { phase: "queued" })).rejects.toThrow(TypeError);
      expect(await store.load("s1")).toEqual([]);
      expect(await store.list()).toEqual([]);
      expect((await store.append("s1", [created()], { phase: "queued" }))[0].seq).toBe(0);
    });

    test("a failed batch on an existing session keeps its events and phase", async () => {
      await store.append("s1", [created(), prepared], { phase: "planning" });
      await expect(store.append("s1", [submitted(), unserialisable], { phase: "awaiting_plan_approval" })).rejects.toThrow(TypeError);
      expect((await store.load("s1")).map((e) => e.type)).toEqual(["session_created", "workspace_prepared"]);
      expect((await store.list())[0].phase).toBe("planning");
    });
  });

  describe("optimistic concurrency", () => {
    test("expectedCount that differs throws ConcurrentAppendError and stores nothing", async () => {
      await store.append("s1", [created()], { expectedCount: 0, phase: "queued" });
      const err = await store.append("s1", [prepared], { expectedCount: 0, phase: "planning" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConcurrentAppendError);
      expect(err).toMatchObject({ sessionId: "s1", expected: 0, actual: 1 });
      expect(await store.load("s1")).toHaveLength(1);
      expect((await store.append("s1", [prepared], { expectedCount: 1, phase: "planning" }))[0].seq).toBe(1);
    });

    test("two connections: the second writer with a stale count loses", async () => {
      const other = open();
      await store.append("s1", [created()], { phase: "queued" });
      const count = (await other.load("s1")).length;
      await store.append("s1", [prepared], { expectedCount: count, phase: "planning" });
      await expect(other.append("s1", [prepared], { expectedCount: count, phase: "planning" })).rejects.toBeInstanceOf(ConcurrentAppendError);
      expect((await other.load("s1")).map((e) => e.seq)).toEqual([0, 1]);
    });

    test("eight writers on four connections racing with the same count: exactly one wins", async () => {
      await store.append("s1", [created()], { phase: "queued" });
      const stores = [store, open(), open(), open()];
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => stores[i % 4].append("s1", [prepared], { expectedCount: 1, phase: "planning" })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ConcurrentAppendError);
      expect((await store.load("s1")).map((e) => e.seq)).toEqual([0, 1]);
    });

    test("unguarded appends from several connections interleave without a gap or a duplicate seq", async () => {
      const stores = [store, open(), open()];
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => stores[i % 3].append("s1", [i === 0 ? created() : prepared], { phase: i === 0 ? "queued" : "planning" })),
      );
      expect((await store.load("s1")).map((e) => e.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      // One chain, not a fork: every event links to the one stored before it, whoever wrote it.
      expect(verifyLedgerChain("s1", await store.loadChain("s1"))).toEqual({ ok: true, head: await store.ledgerHead("s1") });
    });
  });

  describe("the hash chain", () => {
    test("each event is chained to the one before it, from the session's genesis value, as the encoding says", async () => {
      const stored = await store.append("s1", [created(), prepared], { phase: "planning" });
      await store.append("s1", [submitted()], { phase: "awaiting_plan_approval" });
      const links = await open().loadChain("s1");
      expect(links.map((l) => l.event)).toEqual([created(), prepared, submitted()]);
      expect(links[0]!.prev).toBe(genesisHash("s1"));
      expect(links[0]!.hash).toBe(linkHash("s1", 0, stored[0]!.at, canonicalJson(created()), genesisHash("s1")));
      expect(links[1]!.prev).toBe(links[0]!.hash);
      expect(links[2]!.prev).toBe(links[1]!.hash);
      expect(verifyLedgerChain("s1", links)).toEqual({ ok: true, head: links[2]!.hash });
      expect(await store.ledgerHead("s1")).toBe(links[2]!.hash);
    });

    test("an event comes back with its keys in the order it was built: a resumed session renders it as before", async () => {
      const built = {
        type: "tool_result",
        callId: "c1",
        tool: "read_file",
        toolVersion: "1",
        input: { path: "a", limit: 2 },
        result: { ok: true, data: { z: 1, a: 2 } },
        durationMs: 1,
      };
      await store.append("s1", [created(), built as SessionEvent], { phase: "executing" });
      const loaded = (await open().load("s1"))[1]!;
      expect(JSON.stringify(loaded)).toBe(JSON.stringify({ ...built, seq: 1, at: loaded.at }));
    });

    test("a session with no events has no head and an empty chain", async () => {
      expect(await store.ledgerHead("nobody")).toBeNull();
      expect(await store.loadChain("nobody")).toEqual([]);
    });
  });

  describe("the inbox", () => {
    test("new the first time; pending until completed; done after — also from another connection", async () => {
      expect(await store.receiveDelivery(d("d-1"))).toBe("new");
      expect(await store.receiveDelivery(d("d-1"))).toBe("pending");
      expect(await store.receiveDelivery(d("d-2"))).toBe("new");
      await store.completeDelivery("d-2");
      await store.close();
      const reopened = open();
      expect(await reopened.receiveDelivery(d("d-1"))).toBe("pending");
      expect(await reopened.receiveDelivery(d("d-2"))).toBe("done");
      expect(await reopened.receiveDelivery(d("d-3", "pull_request_review"))).toBe("new");
    });

    test("what is not done survives a reopen with its first payload, oldest first", async () => {
      for (const id of ["p-1", "p-2", "p-3"]) await store.receiveDelivery(d(id));
      await store.receiveDelivery({ ...d("p-1"), payload: '{"replaced":true}' });
      await store.completeDelivery("p-2");
      await store.completeDelivery("unknown-id");
      await store.close();
      const reopened = open();
      expect(await reopened.pendingDeliveries()).toEqual([d("p-1"), d("p-3")]);
      // One by id: only while it is pending, with its first payload.
      expect([await reopened.pendingDelivery("p-1"), await reopened.pendingDelivery("p-2"), await reopened.pendingDelivery("unknown-id")]).toEqual([
        d("p-1"),
        null,
        null,
      ]);
    });

    test("a burst, and the same ids from three connections at once: each id is new exactly once", async () => {
      const stores = [store, open(), open()];
      const ids = ["b-1", "b-2", "b-1", "b-3", "b-2", "b-1"];
      const answers = await Promise.all(ids.map((id, i) => stores[i % 3].receiveDelivery(d(id, "issues"))));
      const news = ids.filter((_, i) => answers[i] === "new").sort();
      expect(news).toEqual(["b-1", "b-2", "b-3"]);
      expect(answers.filter((a) => a === "pending")).toHaveLength(3);
    });
  });

  describe("claims and effects", () => {
    test("the first value stays; a later claim gets it back", async () => {
      expect(await store.claimEffect("@x", "claim:comment:1", "delivery-a")).toBe("delivery-a");
      expect(await store.claimEffect("@x", "claim:comment:1", "delivery-b")).toBe("delivery-a");
      expect(await store.claimEffect("@x", "claim:comment:2", "delivery-b")).toBe("delivery-b");
    });

    test("claims racing on several connections agree on one winner", async () => {
      const stores = [store, open(), open()];
      const got = await Promise.all(["a", "b", "c", "d", "e", "f"].map((v, i) => stores[i % 3].claimEffect("@x", "claim:review:9", v)));
      expect(new Set(got).size).toBe(1);
      expect(await store.getEffect("@x", "claim:review:9")).toBe(got[0]);
    });

    test("missing is null; put overwrites; keys are per session", async () => {
      expect(await store.getEffect("s1", "check_run")).toBeNull();
      await store.putEffect("s1", "check_run", "101");
      await store.putEffect("s1", "check_run", "102");
      await store.putEffect("s2", "check_run", "201");
      expect(await store.getEffect("s1", "check_run")).toBe("102");
      expect(await open().getEffect("s2", "check_run")).toBe("201");
      expect(await store.getEffect("s1", "pr")).toBeNull();
    });
  });

  describe("spend", () => {
    const github = (sessionId: string, installationId: number, repoId: number, requesterId: number): SessionEvent => {
      const c = created(sessionId);
      return { ...c, task: { ...c.task, source: { kind: "github", repo: "acme/widgets", installationId, repoId, requesterId } } };
    };
    const EPOCH = "1970-01-01T00:00:00.000Z";

    test("each recorded model call counts once, by installation and repository; unpriced calls in tokens only", async () => {
      await store.append("a", [github("a", 77, 1, 9), llmCalled({ promptTokens: 100, completionTokens: 20 }, 0.5)], { phase: "planning" });
      await store.append("a", [llmCalled({ promptTokens: 10, completionTokens: 5 }, null)], { phase: "planning" });
      await store.append("b", [github("b", 77, 2, 9), llmCalled({ promptTokens: 1, completionTokens: 1 }, 0.25)], { phase: "planning" });
      await store.append("c", [github("c", 78, 1, 9), llmCalled({ promptTokens: 1000, completionTokens: 0 }, 4)], { phase: "planning" });
      await store.append("local", [created("local"), llmCalled({ promptTokens: 5, completionTokens: 5 }, 1)], { phase: "planning" });
      // A batch that fails stores nothing, so it counts nothing.
      await expect(store.append("a", [llmCalled({ promptTokens: 7 }, 7), unserialisable], { phase: "planning" })).rejects.toThrow();

      expect(await store.spendSince({ installationId: 77 }, EPOCH)).toEqual({ usd: 0.75, tokens: 137, calls: 3, unpricedCalls: 1 });
      expect(await store.spendSince({ installationId: 77, repoId: 1 }, EPOCH)).toEqual({ usd: 0.5, tokens: 135, calls: 2, unpricedCalls: 1 });
      expect(await store.spendSince({ installationId: 78, repoId: 2 }, EPOCH)).toEqual({ usd: 0, tokens: 0, calls: 0, unpricedCalls: 0 });
      expect(await store.spendSince({ installationId: 77 }, "9999-01-01T00:00:00.000Z")).toEqual({ usd: 0, tokens: 0, calls: 0, unpricedCalls: 0 });
      expect(await store.spendByInstallation()).toEqual([
        { installationId: 77, usd: 0.75, tokens: 137, calls: 3, unpricedCalls: 1 },
        { installationId: 78, usd: 4, tokens: 1000, calls: 1, unpricedCalls: 0 },
      ]);
      // Another connection (another process) reads the same sums.
      expect(await open().spendSince({ installationId: 77 }, EPOCH)).toEqual({ usd: 0.75, tokens: 137, calls: 3, unpricedCalls: 1 });
    });

    test("sessions started, by requester in one repository of one installation", async () => {
      await store.append("a", [github("a", 77, 1, 9)], { phase: "queued" });
      await store.append("b", [github("b", 77, 1, 9)], { phase: "queued" });
      await store.append("c", [github("c", 77, 1, 10)], { phase: "queued" });
      await store.append("d", [github("d", 77, 2, 9)], { phase: "queued" });
      await store.append("e", [github("e", 78, 1, 9)], { phase: "queued" });
      expect(await store.startsSince({ installationId: 77, repoId: 1, requesterId: 9 }, EPOCH)).toBe(2);
      expect(await store.startsSince({ installationId: 77, repoId: 1, requesterId: 10 }, EPOCH)).toBe(1);
      expect(await store.startsSince({ installationId: 77, repoId: 1, requesterId: 9 }, "9999-01-01T00:00:00.000Z")).toBe(0);
    });

    test("sandboxed runs, by kind and the limit that stopped them", async () => {
      const run = { command: "npm test", exitCode: 0, treeHash: "t", durationMs: 5, timedOut: false, summary: "" };
      const killed = { signal: "SIGKILL", limit: "memory" as const };
      await store.append(
        "a",
        [
          created("a"),
          { type: "baseline_run", ...run },
          { type: "test_run", ...run },
          { type: "test_run", ...run, exitCode: null, killed },
          { type: "test_run", ...run, exitCode: null, killed },
        ],
        { phase: "executing" },
      );
      expect(await store.sandboxRuns()).toEqual([
        { kind: "baseline_run", limit: null, runs: 1 },
        { kind: "test_run", limit: null, runs: 1 },
        { kind: "test_run", limit: "memory", runs: 2 },
      ]);
    });
  });

  describe("list and keys", () => {
    test("list gives each session's current phase, newest first", async () => {
      await store.append("s1", toExecuting(), { phase: "executing" });
      await store.append("s2", [created("s2")], { phase: "queued" });
      expect(await store.list()).toEqual([
        { id: "s2", key: null, phase: "queued", createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
        { id: "s1", key: null, phase: "executing", createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
      ]);
    });

    test("findByKey returns the newest session with that key", async () => {
      expect(await store.findByKey("acme/widgets#12")).toBeNull();
      await store.append("old", [created("old")], { phase: "queued" });
      await store.append("new", [created("new")], { phase: "queued" });
      await store.setKey("new", "acme/widgets#12");
      await store.setKey("old", "acme/widgets#12");
      expect(await store.findByKey("acme/widgets#12")).toBe("new");
      expect((await store.list()).map((s) => s.key)).toEqual(["acme/widgets#12", "acme/widgets#12"]);
    });

    test("setKey on a session with no events is refused", async () => {
      await expect(store.setKey("ghost", "acme/widgets#1")).rejects.toThrow("unknown session ghost");
      expect(await store.findByKey("acme/widgets#1")).toBeNull();
    });

    test("a reopened store sees events, phases, keys and effects", async () => {
      await store.append("s1", toExecuting(), { phase: "executing" });
      await store.setKey("s1", "acme/widgets#7");
      await store.putEffect("s1", "pr", "7");
      const before = { events: await store.load("s1"), list: await store.list() };
      await store.close();
      const reopened = open();
      expect(await reopened.load("s1")).toEqual(before.events);
      expect(await reopened.list()).toEqual(before.list);
      expect(await reopened.findByKey("acme/widgets#7")).toBe("s1");
      expect(await reopened.getEffect("s1", "pr")).toBe("7");
    });
  });
}
