import { runPooled } from "../../src/eval/case-pool.js";

/** Work whose items end only when the test says so, recording what ran beside what. */
function controlledWork() {
  const running = new Set<string>();
  const seenTogether: string[][] = [];
  const enders = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const started: string[] = [];
  const work = (item: string) =>
    new Promise<string>((resolve, reject) => {
      running.add(item);
      started.push(item);
      seenTogether.push([...running].sort());
      enders.set(item, {
        resolve: () => {
          running.delete(item);
          resolve(`done ${item}`);
        },
        reject: (e) => {
          running.delete(item);
          reject(e);
        },
      });
    });
  /** Lets the event loop run until `item` has started, then ends it. */
  const end = async (item: string, error?: Error) => {
    while (!enders.has(item)) await new Promise<void>((r) => setImmediate(r));
    const e = enders.get(item)!;
    if (error) e.reject(error);
    else e.resolve();
  };
  return { work, end, started, seenTogether };
}

test("runs at most the limit at once and gives the results in the items' order", async () => {
  const w = controlledWork();
  const all = runPooled(["a", "b", "c", "d"], 2, () => false, w.work);
  await w.end("b");
  await w.end("c");
  await w.end("a");
  await w.end("d");
  expect(await all).toEqual(["done a", "done b", "done c", "done d"]);
  expect(Math.max(...w.seenTogether.map((s) => s.length))).toBe(2);
  // c took b's slot while a still ran.
  expect(w.seenTogether).toContainEqual(["a", "c"]);
});

test("an item that must run alone waits for the earlier ones and holds back the later ones", async () => {
  const w = controlledWork();
  const all = runPooled(["a", "b", "solo", "c"], 3, (i) => i === "solo", w.work);
  await w.end("a");
  await w.end("b");
  await w.end("solo");
  await w.end("c");
  expect(await all).toEqual(["done a", "done b", "done solo", "done c"]);
  const withSolo = w.seenTogether.filter((s) => s.includes("solo"));
  expect(withSolo).toEqual([["solo"]]);
  expect(w.started).toEqual(["a", "b", "solo", "c"]);
});

test("a failed item stops new starts, lets the running ones end, then throws its error", async () => {
  const w = controlledWork();
  const all = runPooled(["a", "b", "c"], 2, () => false, w.work);
  const outcome = all.then(
    () => "resolved",
    (e: Error) => e.message,
  );
  await w.end("a", new Error("a broke"));
  await w.end("b");
  expect(await outcome).toBe("a broke");
  expect(w.started).toEqual(["a", "b"]);
});

test("a limit below one is refused", async () => {
  await expect(
    runPooled(
      [1],
      0,
      () => false,
      async (n) => n,
    ),
  ).rejects.toThrow("a pool needs a limit ≥ 1, not 0");
});
