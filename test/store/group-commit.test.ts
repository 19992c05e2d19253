import { GroupCommit } from "../../src/store/group-commit.js";

describe("group commit", () => {
  test("requests made in one turn are written in one batch, each answered with its own result", async () => {
    const batches: number[][] = [];
    const gc = new GroupCommit<number, number>((items) => {
      batches.push(items);
      return items.map((n) => n * 10);
    });
    const answers = await Promise.all([gc.submit(1), gc.submit(2), gc.submit(3)]);
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  test("requests in later turns get later batches", async () => {
    const batches: string[][] = [];
    const gc = new GroupCommit<string, boolean>((items) => (batches.push(items), items.map(() => true)));
    await gc.submit("a");
    await gc.submit("b");
    expect(batches).toEqual([["a"], ["b"]]);
  });

  test("a failed write rejects every request of its batch and the next batch still works", async () => {
    let fail = true;
    const gc = new GroupCommit<string, string>((items) => {
      if (fail) throw new Error("disk full");
      return items;
    });
    const results = await Promise.allSettled([gc.submit("x"), gc.submit("y")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    await expect(gc.submit("z")).resolves.toBe("z");
  });

  test("flush writes what is queued at once (used on close)", () => {
    const batches: string[][] = [];
    const gc = new GroupCommit<string, boolean>((items) => (batches.push(items), items.map(() => true)));
    void gc.submit("late");
    gc.flush();
    expect(batches).toEqual([["late"]]);
  });
});
