import { settleOrAbandon } from "../../src/queue/abandon.js";

describe("settleOrAbandon", () => {
  test("work that settles is passed through, value or error, aborted or not", async () => {
    const live = new AbortController();
    await expect(settleOrAbandon(Promise.resolve(7), live.signal, 10)).resolves.toBe(7);
    live.abort();
    await expect(settleOrAbandon(Promise.reject(new Error("boom")), live.signal, 10_000)).rejects.toThrow("boom");
  });

  test("work that never settles is waited for as long as nothing aborts it", async () => {
    const live = new AbortController();
    const never = new Promise<number>(() => undefined);
    const seen = await Promise.race([settleOrAbandon(never, live.signal, 1), new Promise((r) => setTimeout(() => r("still waiting"), 50))]);
    expect(seen).toBe("still waiting");
  });

  test("after the abort, stuck work is abandoned once the grace period is over; its late ending is reported", async () => {
    const stop = new AbortController();
    let finish!: (v: number) => void;
    const stuck = new Promise<number>((r) => (finish = r));
    const late: unknown[] = [];
    const outcome = settleOrAbandon(stuck, stop.signal, 20, (o) => late.push(o));
    stop.abort();
    await expect(outcome).resolves.toBe("abandoned");
    finish(3);
    await stuck;
    expect(late).toEqual([3]);
  });
});
