import { existsSync } from "node:fs";
import path from "node:path";
import type { BubblewrapSession } from "../../src/sandbox/bubblewrap-session.js";
import type { SandboxRunRequest } from "../../src/sandbox/types.js";
import { bubblewrap, tempWorkspace } from "./sandbox-fixture.js";

/**
 * Readying a session's sandbox for a run (Sandbox.prepare) lays the run out and starts the sandbox
 * it will run in, and runs nothing: the run that follows finds it started and only runs.
 */
describe("bubblewrap: a session's sandbox readied before its run", () => {
  const ws = tempWorkspace("pg-prepare-");
  let session: BubblewrapSession;
  const request = (script: string): SandboxRunRequest => ({ argv: ["/bin/sh", "-c", script], workspace: ws.dir, timeoutMs: 20_000 });

  beforeAll(async () => {
    session = (await bubblewrap()).openSession?.() as BubblewrapSession;
  });
  afterAll(async () => {
    await session.close();
    ws.cleanup();
  });

  test("readying starts the run's sandbox and runs nothing; the run then runs in it", async () => {
    await session.prepare(request("echo ran > ran.txt"));
    expect([session.sandboxesStarted, session.longLivedRuns, session.oneShotRuns]).toEqual([1, 0, 0]);
    expect(existsSync(path.join(ws.dir, "ran.txt"))).toBe(false);

    const r = await session.run(request("echo ran > ran.txt; cat ran.txt"));
    expect([r.exitCode, r.stdout]).toEqual([0, "ran\n"]);
    expect([session.sandboxesStarted, session.longLivedRuns, session.oneShotRuns]).toEqual([1, 1, 0]);
  });

  test("a run and the readying of its layout side by side start one sandbox between them", async () => {
    const other = { ...request("echo side"), limits: { maxProcesses: 33 } };
    const before = session.sandboxesStarted;
    const [, r] = await Promise.all([session.prepare(other), session.run(other)]);
    expect(r.stdout).toBe("side\n");
    expect(session.sandboxesStarted - before).toBe(1);
  });

  test("a networked run is never readied: it runs on its own, with its own proxy", async () => {
    const before = session.sandboxesStarted;
    await session.prepare({ ...request("true"), network: true });
    expect(session.sandboxesStarted).toBe(before);
  });
});
