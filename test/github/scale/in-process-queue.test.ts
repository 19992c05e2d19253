import { InProcessQueue } from "../../../src/queue/in-process.js";
import { AbortRegistry } from "../../../src/queue/abort-registry.js";

/** A promise with its resolve exposed: jobs wait on these signals instead of timers. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe("InProcessQueue", () => {
  test("a job never runs inside enqueue (the webhook request)", async () => {
    const q = new InProcessQueue();
    const ran: string[] = [];
    q.enqueue({ key: "a", name: "a1", run: async () => void ran.push("a1") });
    expect(ran).toEqual([]);
    await q.idle();
    expect(ran).toEqual(["a1"]);
  });

  test("jobs with one key run one after another, in order", async () => {
    const q = new InProcessQueue();
    const log: string[] = [];
    const first = gate();
    q.enqueue({
      key: "s",
      name: "1",
      run: async () => {
        log.push("1 start");
        await first.promise;
        log.push("1 end");
      },
    });
    q.enqueue({ key: "s", name: "2", run: async () => void log.push("2") });
    q.enqueue({
      key: "other",
      name: "3",
      run: async () => {
        log.push("3");
        first.open();
      },
    });
    await q.idle();
    expect(log).toEqual(["1 start", "3", "1 end", "2"]);
  });

  test("a failing job is reported and does not block its lane", async () => {
    const failures: string[] = [];
    const q = new InProcessQueue((job, e) => failures.push(`${job.name}: ${(e as Error).message}`));
    const ran: string[] = [];
    q.enqueue({
      key: "s",
      name: "bad",
      run: async () => {
        throw new Error("boom");
      },
    });
    q.enqueue({ key: "s", name: "good", run: async () => void ran.push("good") });
    await q.idle();
    expect(failures).toEqual(["bad: boom"]);
    expect(ran).toEqual(["good"]);
  });

  test("idle waits for jobs enqueued by jobs", async () => {
    const q = new InProcessQueue();
    const ran: string[] = [];
    q.enqueue({ key: "s", name: "parent", run: async () => q.enqueue({ key: "s", name: "child", run: async () => void ran.push("child") }) });
    await q.idle();
    expect(ran).toEqual(["child"]);
  });

  test("a closed queue refuses work", async () => {
    const q = new InProcessQueue();
    await q.close();
    expect(() => q.enqueue({ key: "s", name: "late", run: async () => {} })).toThrow("queue closed; dropped late");
  });
});

describe("AbortRegistry", () => {
  test("abort signals every piece of work under the key and only those", () => {
    const r = new AbortRegistry();
    const a = r.begin("o/r#1");
    const b = r.begin("o/r#1");
    const c = r.begin("o/r#2");
    expect(r.abort("o/r#1", "stopped by @m")).toBe(2);
    expect([a.signal.aborted, b.signal.aborted, c.signal.aborted]).toEqual([true, true, false]);
    expect((a.signal.reason as Error).message).toBe("stopped by @m");
  });

  test("released work is no longer abortable", () => {
    const r = new AbortRegistry();
    const a = r.begin("k");
    a.release();
    expect(r.active("k")).toBe(false);
    expect(r.abort("k", "x")).toBe(0);
    expect(a.signal.aborted).toBe(false);
  });

  test("a pending stop is counted per key until each is applied", () => {
    const r = new AbortRegistry();
    r.stop("k");
    r.stop("k");
    expect([r.stopping("k"), r.stopping("other")]).toEqual([true, false]);
    r.stopped("k");
    expect(r.stopping("k")).toBe(true);
    r.stopped("k");
    expect(r.stopping("k")).toBe(false);
  });
});
