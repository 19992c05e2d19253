import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";

/**
 * The inbox insert runs on a thread of its own (src/store/delivery-writer.ts) with its own
 * connection; the contract is the store's: answered once committed, a redelivery inserts nothing,
 * and a process killed right after the answer has lost nothing.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const delivery = (id: string) => ({ id, event: "issue_comment", payload: JSON.stringify({ id }) });

describe("the inbox insert on its own thread", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pg-inbox-writer-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("new once, pending while not done, done after: within a batch, across batches and across connections", async () => {
    const file = join(dir, "s.sqlite");
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

  test("kill -9 right after a delivery was answered: it is in the inbox when the store is opened again", async () => {
    const file = join(dir, "s.sqlite");
    const child = spawn(process.execPath, ["--import", "tsx", join(root, "test/fakes/inbox-process.ts"), file], {
      cwd: root,
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const exited = new Promise((r) => child.once("exit", r));
    for (const id of ["d1", "d2", "d1"]) child.stdin!.write(`${id}\n`);
    expect((await lines.next()).value).toBe("recorded d1 new");
    expect((await lines.next()).value).toBe("recorded d2 new");
    expect((await lines.next()).value).toBe("recorded d1 pending");
    child.stdin!.write("d3\n");
    expect((await lines.next()).value).toBe("recorded d3 new");
    child.kill("SIGKILL");
    await exited;
    const store = SqliteSessionStore.open(file);
    expect((await store.pendingDeliveries()).map((d) => d.id)).toEqual(["d1", "d2", "d3"]);
    await store.close();
  });
});
