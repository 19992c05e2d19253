import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type FormSandbox, SANDBOX_FORMS, bubblewrapIn, sh, tempWorkspace } from "./sandbox-fixture.js";

type Line = [stream: "stdout" | "stderr", line: string];

describe.each(SANDBOX_FORMS)("bubblewrap (%s): streaming and abort", (form) => {
  let sandbox: FormSandbox;
  const ws = tempWorkspace();

  beforeAll(async () => {
    sandbox = await bubblewrapIn(form);
  });
  afterAll(async () => {
    await sandbox.end();
    ws.cleanup();
  });

  test("lines arrive while the command runs: it cannot finish until we have seen the first", async () => {
    // The command blocks on a FIFO that the test writes only after onOutput delivered "first". The
    // FIFO is outside the workspace, bound as it is: through the run's overlay layer it would be a
    // pipe of its own, which the host's writer never reaches.
    const fifoDir = tempWorkspace("pg-fifo-");
    const fifo = join(fifoDir.dir, "go.fifo");
    execFileSync("mkfifo", [fifo]);
    const lines: Line[] = [];
    const r = await sh(sandbox, ws.dir, `echo first; echo warn >&2; read x < ${fifo}; echo "second $x"`, {
      session: { binds: [fifoDir.dir], pathDirs: [] },
      onOutput: (stream, line) => {
        lines.push([stream, line]);
        if (line === "first") void writeFile(fifo, "released\n");
      },
    });
    fifoDir.cleanup();
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("first\nsecond released\n");
    expect(lines.filter(([s]) => s === "stdout")).toEqual([
      ["stdout", "first"],
      ["stdout", "second released"],
    ]);
    expect(lines.filter(([s]) => s === "stderr")).toEqual([["stderr", "warn"]]);
  });

  test("a last line without a newline is delivered too", async () => {
    const lines: Line[] = [];
    await sh(sandbox, ws.dir, "printf 'a\\nb'", { onOutput: (s, l) => lines.push([s, l]) });
    expect(lines).toEqual([
      ["stdout", "a"],
      ["stdout", "b"],
    ]);
  });

  test("abort kills the whole sandbox promptly", async () => {
    const controller = new AbortController();
    const r = await sh(sandbox, ws.dir, "echo ready; exec sleep 1000", {
      timeoutMs: 60_000,
      signal: controller.signal,
      onOutput: (_s, line) => line === "ready" && controller.abort(),
    });
    expect({ exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, stdout: r.stdout }).toEqual({
      exitCode: null,
      signal: "SIGKILL",
      timedOut: false,
      stdout: "ready\n",
    });
    expect(r.durationMs).toBeLessThan(3000);
  });

  test("an already aborted signal kills at once", async () => {
    const r = await sh(sandbox, ws.dir, "sleep 1000", { timeoutMs: 60_000, signal: AbortSignal.abort() });
    expect({ signal: r.signal, timedOut: r.timedOut }).toEqual({ signal: "SIGKILL", timedOut: false });
    expect(r.durationMs).toBeLessThan(3000);
  });
});
