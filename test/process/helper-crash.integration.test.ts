import { once } from "node:events";
import { helper } from "../../src/process/helper-connection.js";
import { ProcessError } from "../../src/process/process-error.js";
import { runProcess } from "../../src/process/run-process.js";
import { startProcess } from "../../src/process/start-process.js";
import { git } from "../../src/workspace/git.js";
import { spawnScript } from "../helpers/script-process.js";
import { bubblewrap, tempWorkspace } from "../sandbox/sandbox-fixture.js";
import { pidsRunning, untilGone } from "./process-state.js";

const PATH = { PATH: "/usr/bin:/bin" };

/** A command that is surely running in the helper: it has printed. */
async function running(): Promise<{ run: Promise<unknown>; pid: number }> {
  const child = startProcess({ command: "sh", args: ["-c", "echo $$; exec sleep 600"], env: PATH });
  const run = new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  const [pid] = (await once(child.stdout, "data")) as [Buffer];
  return { run, pid: Number(pid.toString().trim()) };
}

describe("the spawn helper dying", () => {
  test("mid-command: the caller gets a ProcessError helper_lost (never a hang), the command is stopped, the next call gets a new helper", async () => {
    const first = helper().pid!;
    const { run, pid } = await running();
    const lost = runProcess({ command: "sleep", args: ["600"], env: PATH });
    process.kill(first, "SIGKILL");
    await expect(run).rejects.toMatchObject({ name: "ProcessError", kind: "helper_lost" });
    const e = (await lost.catch((x: unknown) => x)) as ProcessError;
    expect(ProcessError.isInstance(e) && e.kind).toBe("helper_lost");
    expect(e.message).toMatch(/spawn helper exited \(SIGKILL\)/);
    await untilGone([pid]);

    const again = await git(["--version"], { cwd: "/" });
    expect(again.exitCode).toBe(0);
    expect(helper().pid).not.toBe(first);
  });

  test("mid-sandbox-run: the run rejects with a SandboxError backend_lost, and the sandbox is gone", async () => {
    const sandbox = await bubblewrap();
    const ws = tempWorkspace();
    try {
      const lines: string[] = [];
      let onLine = (): void => undefined;
      const started = new Promise<void>((resolve) => (onLine = resolve));
      const marker = ["sleep", String(600 + Math.floor(Math.random() * 1e6))];
      const run = sandbox.run({
        argv: ["sh", "-c", `echo started; exec ${marker.join(" ")}`],
        workspace: ws.dir,
        timeoutMs: 120_000,
        onOutput: (_s, line) => (lines.push(line), onLine()),
      });
      await started;
      // `started` is printed just before the exec.
      let inside = pidsRunning(marker);
      while (inside.length === 0) inside = await new Promise<number[]>((r) => setTimeout(() => r(pidsRunning(marker)), 20));
      expect(inside).toHaveLength(1);
      process.kill(helper().pid!, "SIGKILL");
      await expect(run).rejects.toMatchObject({ name: "SandboxError", kind: "backend_lost" });
      expect(lines).toEqual(["started"]);
      await untilGone(inside);
    } finally {
      ws.cleanup();
    }
  });

  test("a kill -9 of the app leaves no helper and nothing it started behind", async () => {
    const app = await spawnScript("test/fakes/spawning-app.ts", {});
    try {
      await app.printed("ready");
      const m = /helper=(\d+) plain=(\d+) group=(\d+) grandchild=(\d+)/.exec(app.output());
      const pids = m!.slice(1).map(Number);
      expect(pids.every((p) => p > 0)).toBe(true);
      await app.kill9();
      await untilGone(pids);
    } finally {
      await app.kill9();
    }
  });
});
