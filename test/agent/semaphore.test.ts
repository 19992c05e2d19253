import { Semaphore } from "../../src/agent/semaphore.js";
import { limitSizesFrom, ResourceLimitError } from "../../src/agent/resource-limits.js";

/** A task that runs until released, recording when it started. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, task: async () => opened };
}

describe("Semaphore", () => {
  it("runs at most `size` at once, the rest in arrival order as slots free", async () => {
    const s = new Semaphore(2);
    const started: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g, i) => s.run(async () => (started.push(i), g.task())));
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    expect([s.active, s.waiting]).toEqual([2, 2]);
    gates[1]!.open();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    gates[2]!.open();
    gates[3]!.open();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3]);
    expect([s.active, s.waiting]).toEqual([0, 0]);
  });

  it("frees the slot when the task throws", async () => {
    const s = new Semaphore(1);
    await expect(s.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(s.run(async () => "next")).resolves.toBe("next");
    expect(s.active).toBe(0);
  });

  it("lets an aborted waiter go at once, without a slot, and keeps the others' order", async () => {
    const s = new Semaphore(1);
    const first = gate();
    const holder = s.run(first.task);
    const stop = new AbortController();
    const order: string[] = [];
    const stopped = s.run(async () => void order.push(`stopped ran, aborted=${stop.signal.aborted}, active=${s.active}`), stop.signal);
    const next = s.run(async () => void order.push("next ran"));
    stop.abort();
    await stopped;
    expect(order).toEqual(["stopped ran, aborted=true, active=1"]);
    expect(s.waiting).toBe(1);
    first.open();
    await holder;
    await next;
    expect(order).toEqual(["stopped ran, aborted=true, active=1", "next ran"]);
    expect(s.active).toBe(0);
  });

  it("refuses a size below 1", () => {
    expect(() => new Semaphore(0)).toThrow("a semaphore needs a size ≥ 1, not 0");
  });
});

describe("resource limit sizes", () => {
  it("default to the cores, at least 2, and follow the environment", () => {
    expect(limitSizesFrom({}, 8)).toEqual({ clones: 8, sandboxRuns: 8 });
    expect(limitSizesFrom({}, 1)).toEqual({ clones: 2, sandboxRuns: 2 });
    expect(limitSizesFrom({ PATCHGATE_MAX_CLONES: "3", PATCHGATE_MAX_SANDBOX_RUNS: " 5 " }, 8)).toEqual({ clones: 3, sandboxRuns: 5 });
  });

  it.each(["0", "-1", "two", "1.5"])("refuse %p, naming the variable", (v) => {
    expect(() => limitSizesFrom({ PATCHGATE_MAX_SANDBOX_RUNS: v }, 2)).toThrow(ResourceLimitError);
    expect(() => limitSizesFrom({ PATCHGATE_MAX_SANDBOX_RUNS: v }, 2)).toThrow(`PATCHGATE_MAX_SANDBOX_RUNS must be a positive integer, got "${v}"`);
  });
});

describe("a session's sandbox", () => {
  it("runs at most the process's sandbox-run limit at once, across sessions", async () => {
    const { withSession, sessionExtras } = await import("../../src/agent/session-sandbox.js");
    const { resourceLimits } = await import("../../src/agent/resource-limits.js");
    const size = resourceLimits().sandboxRuns.size;
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const fake = {
      backend: "bubblewrap" as const,
      run: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((r) => release.push(r));
        running -= 1;
        return { exitCode: 0, signal: null, stdout: "", stderr: "", truncated: false, timedOut: false, durationMs: 1 };
      },
    };
    // Two sessions, each with its own wrapped sandbox, asking for more runs than there are slots.
    const sessions = [withSession(fake, sessionExtras(null, undefined)), withSession(fake, sessionExtras(null, undefined))];
    const runs = Array.from({ length: size + 3 }, (_, i) => sessions[i % 2]!.run({ argv: ["true"], workspace: "/ws", timeoutMs: 1000 }));
    while (release.length < size) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(running).toBe(size);
    while (release.length > 0 || running > 0) {
      release.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(runs);
    expect(most).toBe(size);
  });
});
