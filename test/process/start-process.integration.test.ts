import { once } from "node:events";
import { readFileSync } from "node:fs";
import os from "node:os";
import type { Readable, Writable } from "node:stream";
import { helper } from "../../src/process/helper-connection.js";
import { runProcess } from "../../src/process/run-process.js";
import { startProcess } from "../../src/process/start-process.js";
import { untilGone } from "./process-state.js";

const PATH = { PATH: "/usr/bin:/bin" };

describe("startProcess / runProcess (through the spawn helper)", () => {
  test("the fork happens in the helper, not in this process", async () => {
    const r = await runProcess({ command: "sh", args: ["-c", "echo $PPID"], env: PATH });
    const parent = Number(r.stdout.toString().trim());
    expect(parent).toBe(helper().pid);
    expect(parent).not.toBe(process.pid);
  });

  test("stdin, stdout, stderr and the exit code come through, byte for byte", async () => {
    const input = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 7) % 256));
    const r = await runProcess({ command: "sh", args: ["-c", "cat; printf 'to stderr' >&2; exit 3"], env: PATH, input });
    expect(r.exitCode).toBe(3);
    expect(r.signal).toBeNull();
    expect(r.stdout.equals(input)).toBe(true);
    expect(r.stderr.toString()).toBe("to stderr");
  });

  test("a process ended by a signal reports the signal and no exit code", async () => {
    const r = await runProcess({ command: "sh", args: ["-c", "kill -TERM $$"], env: PATH });
    expect({ exitCode: r.exitCode, signal: r.signal }).toEqual({ exitCode: null, signal: "SIGTERM" });
  });

  test("the environment is exactly the one given: nothing of this process's, and the helper itself has none", async () => {
    process.env.PATCHGATE_TEST_SECRET = "sk-must-not-leak";
    try {
      const r = await runProcess({ command: "env", args: [], env: { ...PATH, ONLY_THIS: "1" } });
      expect(r.stdout.toString().trim().split("\n").sort()).toEqual(["ONLY_THIS=1", "PATH=/usr/bin:/bin"]);
      expect(readFileSync(`/proc/${helper().pid}/environ`, "utf8")).toBe("");
    } finally {
      delete process.env.PATCHGATE_TEST_SECRET;
    }
  });

  test("a command that cannot start rejects with node's spawn error; a bad cwd too", async () => {
    await expect(runProcess({ command: "patchgate-no-such-command", args: [], env: PATH })).rejects.toMatchObject({ code: "ENOENT" });
    await expect(runProcess({ command: "true", args: [], env: PATH, cwd: "/nonexistent/dir" })).rejects.toMatchObject({ code: "ENOENT" });
  });

  test("an abort rejects at once with an AbortError and the process is killed with the signal asked for", async () => {
    const child = startProcess({ command: "sh", args: ["-c", "trap 'echo got INT; exit 7' INT; echo ready; while :; do sleep 0.05; done"], env: PATH });
    child.stdout.setEncoding("utf8");
    const [line] = (await once(child.stdout, "data")) as [string];
    expect(line).toBe("ready\n");
    child.kill("SIGINT");
    const [code] = (await once(child, "close")) as [number];
    expect(code).toBe(7);

    const ac = new AbortController();
    const run = runProcess({ command: "sleep", args: ["600"], env: PATH, signal: ac.signal, killSignal: "SIGKILL" });
    ac.abort();
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
  });

  test("extra pipes (fd 3, 4) carry data both ways", async () => {
    const child = startProcess({ command: "sh", args: ["-c", 'echo hello >&3; read x <&4; echo "got $x"'], env: PATH, stdin: "ignore", extraPipes: 2 });
    const fd3 = child.stdio[3] as Readable;
    const [hello] = (await once(fd3, "data")) as [Buffer];
    expect(hello.toString()).toBe("hello\n");
    (child.stdio[4] as Writable).end("back\n");
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    await once(child, "close");
    expect(out).toBe("got back\n");
  });

  test("a detached process's whole group is killed by killGroup", async () => {
    const child = startProcess({ command: "sh", args: ["-c", "sleep 600 & echo $!; wait"], env: PATH, detached: true });
    const [grandchild] = (await once(child.stdout, "data")) as [Buffer];
    child.killGroup("SIGKILL");
    const [, signal] = (await once(child, "close")) as [number | null, string];
    expect(signal).toBe("SIGKILL");
    await untilGone([Number(grandchild.toString().trim())]);
  });

  test("what the helper starts runs 10 nice levels below this process, detached or not, and its children too", async () => {
    // /proc/<pid>/stat field 19 is the nice value; the inner sh reads its own, a grandchild of the helper's.
    const nice = (detached: boolean) =>
      runProcess({ command: "sh", args: ["-c", "sh -c 'cut -d\\  -f19 /proc/$$/stat'"], env: PATH, detached }).then((r) => Number(r.stdout.toString()));
    const below = Math.min(19, os.getPriority() + 10);
    expect({ plain: await nice(false), detached: await nice(true) }).toEqual({ plain: below, detached: below });
  });
  test("the helper leads a session of its own, apart from this process's", async () => {
    // Where the kernel groups CPU time by session (autogroup), what the helper starts then never counts as this process's.
    await runProcess({ command: "true", args: [], env: PATH });
    const session = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[3]);
    const pid = helper().pid!;
    expect({ helper: session(pid), app: session(process.pid) === session(pid) }).toEqual({ helper: pid, app: false });
  });
});
