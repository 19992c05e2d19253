import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import type { CheckpointResult } from "../../src/store/sqlite-checkpointer.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { SqliteWriter } from "../../src/store/sqlite-writer.js";
import { ConcurrentAppendError } from "../../src/store/types.js";
import { compiledApp } from "../helpers/compiled-app.js";
import { created, prepared, submitted } from "../helpers/session-events.js";
import { walCommits } from "../helpers/wal-commits.js";

/**
 * A file store's writes run on a thread of its own with its own connection (src/store/sqlite-writer.ts);
 * the contract is the store's (test/store/store-contract.ts runs it on a file): answered once
 * committed, read back at once by the store's own connection, and a process killed right after an
 * answer has lost nothing.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const delivery = (id: string) => ({ id, event: "issue_comment", payload: JSON.stringify({ id }) });
/** A delivery's insert as the writer takes it, with a payload the size of a real comment's (~12 KB: ~8 WAL pages). */
const insert = (id: string) => ({
  op: "receiveDelivery" as const,
  args: [id, "issue_comment", JSON.stringify({ id, pad: "x".repeat(12_000) })] as [string, string, string],
});

describe("the store's writes on their own thread", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pg-store-writer-"));
    file = join(dir, "s.sqlite");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("inbox: new once, pending while not done, done after: within a batch, across batches and across connections", async () => {
    const store = SqliteSessionStore.open(file);
    expect(await Promise.all([store.receiveDelivery(delivery("a")), store.receiveDelivery(delivery("a")), store.receiveDelivery(delivery("b"))])).toEqual([
      "new",
      "pending",
      "new",
    ]);
    expect(await store.receiveDelivery(delivery("a"))).toBe("pending");
    // The store's own connection sees the thread's commits at once.
    expect((await store.pendingDeliveries()).map((d) => d.id)).toEqual(["a", "b"]);
    await store.completeDelivery("a");
    expect(await store.receiveDelivery(delivery("a"))).toBe("done");
    const many = await Promise.all(Array.from({ length: 200 }, (_, i) => store.receiveDelivery(delivery(`m${i}`))));
    expect(many.every((s) => s === "new")).toBe(true);
    await store.close();
    const again = SqliteSessionStore.open(file);
    expect((await again.pendingDeliveries()).map((d) => d.id)).toEqual(["b", ...Array.from({ length: 200 }, (_, i) => `m${i}`)]);
    expect(await again.receiveDelivery(delivery("b"))).toBe("pending");
    await again.close();
  });

  test("writes made together go in one batch in their order; a stale append in it is refused and the others are stored", async () => {
    const store = SqliteSessionStore.open(file);
    await store.append("s1", [created()], { expectedCount: 0, phase: "queued" });
    // All made in one turn: the first goes alone, the rest wait for it and are written together.
    const [first, stale, second, key, effect] = await Promise.allSettled([
      store.append("s1", [prepared], { expectedCount: 1, phase: "planning" }),
      store.append("s1", [submitted()], { expectedCount: 1, phase: "awaiting_plan_approval" }),
      store.append("s1", [submitted()], { expectedCount: 2, phase: "awaiting_plan_approval" }),
      store.setKey("s1", "acme/widgets#1"),
      store.claimEffect("s1", "check", "42"),
    ]);
    expect(first).toMatchObject({ status: "fulfilled", value: [{ seq: 1, type: "workspace_prepared" }] });
    expect(stale).toMatchObject({ status: "rejected", reason: expect.any(ConcurrentAppendError) });
    expect((stale as PromiseRejectedResult).reason).toMatchObject({ expected: 1, actual: 2 });
    expect(second).toMatchObject({ status: "fulfilled", value: [{ seq: 2, type: "plan_submitted" }] });
    expect([key.status, effect]).toEqual(["fulfilled", { status: "fulfilled", value: "42" }]);
    expect((await store.load("s1")).map((e) => e.type)).toEqual(["session_created", "workspace_prepared", "plan_submitted"]);
    expect(await store.list()).toMatchObject([{ id: "s1", key: "acme/widgets#1", phase: "awaiting_plan_approval" }]);
    await store.close();
  });

  test("a write waiting for the file's lock leaves the event loop free, and resolves once it has the lock", async () => {
    const store = SqliteSessionStore.open(file);
    await store.append("s1", [created()], { expectedCount: 0, phase: "queued" });
    // Another process holds the write lock: the append waits for it (busy timeout) on the writer's thread.
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    let appended = false;
    const append = store.append("s1", [prepared], { expectedCount: 1, phase: "planning" }).then((r) => ((appended = true), r));
    // Were the wait on this thread, neither the timer nor the read could run before the lock is released.
    await new Promise((r) => setTimeout(r, 50));
    expect(appended).toBe(false);
    expect((await store.load("s1")).length).toBe(1);
    other.exec("COMMIT");
    other.close();
    expect((await append).map((e) => e.seq)).toEqual([1]);
    expect((await store.load("s1")).length).toBe(2);
    await store.close();
  });

  test("a commit never checkpoints: 300 deliveries (over 2,000 WAL frames, twice SQLite's automatic mark) are all still in the WAL", async () => {
    await SqliteSessionStore.open(file).close(); // the schema
    const writer = new SqliteWriter(file, { checkpointEvery: Infinity });
    for (let i = 0; i < 300; i++) expect(await writer.submit(insert(`d${i}`))).toEqual({ value: "new" });
    // Each one its own commit, none of them restarting the log: nothing was copied out of it.
    expect(walCommits(file)).toBe(300);
    await writer.close();
  });

  test("the checkpoint thread copies the WAL into the database file, and the next commit starts the WAL over", async () => {
    await SqliteSessionStore.open(file).close();
    let pass: (r: CheckpointResult) => void = () => {};
    const passed = new Promise<CheckpointResult>((r) => (pass = r));
    const writer = new SqliteWriter(file, { checkpointEvery: 100, onCheckpoint: (r) => pass(r) });
    for (let i = 0; i < 100; i++) await writer.submit(insert(`d${i}`));
    const r = await passed;
    expect(r).toMatchObject({ busy: 0, checkpointed: r.log });
    expect(r.log).toBeGreaterThanOrEqual(100);
    // The database file alone (no WAL beside it) holds all 100.
    const alone = join(dir, "alone.sqlite");
    copyFileSync(file, alone);
    const db = new Database(alone, { readonly: true });
    expect(db.prepare("SELECT count(*) AS n FROM deliveries").get()).toEqual({ n: 100 });
    db.close();
    await writer.submit(insert("after"));
    expect(walCommits(file)).toBe(1);
    await writer.close();
  });

  test("kill -9 right after a delivery was answered or an append resolved: it is there when the store is opened again", async () => {
    const child = spawn(process.execPath, [join(await compiledApp(), "test/fakes/store-process.js"), file], {
      cwd: root,
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const exited = new Promise((r) => child.once("exit", r));
    for (const line of ["d1", "d2", "d1", "append s1 0", "append s1 1"]) child.stdin!.write(`${line}\n`);
    expect((await lines.next()).value).toBe("recorded d1 new");
    expect((await lines.next()).value).toBe("recorded d2 new");
    expect((await lines.next()).value).toBe("recorded d1 pending");
    expect((await lines.next()).value).toBe("appended s1 0");
    expect((await lines.next()).value).toBe("appended s1 1");
    child.stdin!.write("d3\n");
    expect((await lines.next()).value).toBe("recorded d3 new");
    child.stdin!.write("append s1 2\n");
    expect((await lines.next()).value).toBe("appended s1 2");
    child.kill("SIGKILL");
    await exited;
    const store = SqliteSessionStore.open(file);
    expect((await store.pendingDeliveries()).map((d) => d.id)).toEqual(["d1", "d2", "d3"]);
    expect((await store.load("s1")).map((e) => [e.seq, e.type])).toEqual([
      [0, "session_created"],
      [1, "user_message"],
      [2, "user_message"],
    ]);
    await store.close();
  });
});
