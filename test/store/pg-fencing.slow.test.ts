import { LeaseLostError } from "../../src/store/fence.js";
import { PostgresSessionStore } from "../../src/store/pg-store.js";
import { LaneTable } from "../../src/queue/pg/lane-table.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../helpers/postgres.js";
import { created, prepared } from "../helpers/session-events.js";

/**
 * Fencing on a real PostgreSQL: a worker whose lease on a session's lane was taken over (its lease
 * ran out while it hung, and another worker took the lane) has every write refused from then on —
 * ledger appends, effects, claims, keys, the inbox — while the new holder writes freely.
 */
const cluster = postgresForTests("the fencing tests");

if (!cluster) {
  test.skip("fencing (needs PostgreSQL)", () => undefined);
} else {
  let db: TestDatabase;
  let store: PostgresSessionStore;
  beforeEach(async () => {
    db = await freshDatabase(cluster);
    store = new PostgresSessionStore(db.url);
    await store.ready();
  });
  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  test("the old holder's writes are refused once another worker holds the lane; the new holder's land", async () => {
    const lanes = new LaneTable(store.pool);
    const first = (await lanes.acquire("acme/w#1", "w1", 60_000))!;
    const old = store.fenced(first);
    await old.append("s1", [created()], { expectedCount: 0, phase: "queued" });
    await old.setKey("s1", "acme/w#1");
    await store.receiveDelivery({ id: "d1", event: "issue_comment", payload: "{}" });

    // w1 hangs past its lease; w2 takes the lane with a new epoch.
    expect(await lanes.acquire("acme/w#1", "w2", 60_000)).toBeNull();
    await store.pool.query("UPDATE queue_lanes SET expires_at = now() - interval '1 second'");
    const second = (await lanes.acquire("acme/w#1", "w2", 60_000))!;
    expect(second.epoch).toBe(first.epoch + 1);

    const refused = [
      old.append("s1", [prepared], { expectedCount: 1, phase: "planning" }),
      old.putEffect("s1", "pr", "7"),
      old.claimEffect("@github-index", "claim:1:comment:5", "d1"),
      old.setKey("s1", "acme/w#2"),
      old.completeDelivery("d1"),
    ];
    for (const r of await Promise.allSettled(refused)) {
      expect(r.status).toBe("rejected");
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(LeaseLostError);
    }
    expect(await store.load("s1")).toHaveLength(1);
    expect(await store.getEffect("s1", "pr")).toBeNull();
    expect(await store.getEffect("@github-index", "claim:1:comment:5")).toBeNull();
    expect(await store.pendingDeliveries()).toHaveLength(1);

    const current = store.fenced(second);
    await current.append("s1", [prepared], { expectedCount: 1, phase: "planning" });
    expect(await current.claimEffect("@github-index", "claim:1:comment:5", "d1")).toBe("d1");
    await current.completeDelivery("d1");
    expect((await store.load("s1")).map((e) => e.seq)).toEqual([0, 1]);
    expect(await store.pendingDeliveries()).toEqual([]);
    await old.close(); // a view: the pool stays open for the store
    expect(await store.load("s1")).toHaveLength(2);
  });
}
