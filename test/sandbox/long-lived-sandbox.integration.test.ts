import { execFile } from "node:child_process";
import { join } from "node:path";
import { descendants, untilGone } from "./process-tree.js";
import { bubblewrap, inForm, sh, tempWorkspace, type FormSandbox } from "./sandbox-fixture.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { compiledApp } from "../helpers/compiled-app.js";

// Shell builtins only, so that the probe itself adds no process: one line per process in the sandbox.
const PROCESSES = "for d in /proc/[0-9]*; do read c < $d/comm; echo $c; done";
// What a command can leave behind outside the workspace, listed with builtins and a few tools.
const LEFTOVERS = "ls -A /tmp /tmp/home /dev/shm; ls -A /dev; readlink /dev/stdout; ipcs -m | grep -c '^0x' || true";

// The keyring syscalls' numbers on the architectures the long-lived sandbox runs on.
const KEY_SYSCALLS = { x64: { addKey: 248, keyctl: 250 }, arm64: { addKey: 217, keyctl: 219 } };

describe("bubblewrap: one long-lived sandbox per session", () => {
  const ws = tempWorkspace("pg-long-");
  let base: Sandbox;
  let session: FormSandbox;

  beforeAll(async () => {
    base = await bubblewrap();
    session = inForm(base, "long-lived");
  });
  afterAll(async () => {
    await session.end();
    ws.cleanup();
  });

  test("a command's leftover background processes are killed before the next command starts", async () => {
    // One in the command's process group, one in a session of its own, one that ignores SIGTERM.
    const first = await sh(session, ws.dir, "sleep 1000 & setsid sleep 1001 & (trap '' TERM; exec sleep 1002) & echo started");
    expect(first.stdout).toBe("started\n");
    const next = await sh(session, ws.dir, PROCESSES);
    // The supervisor (pid 1) and this command's shell: nothing else.
    expect(next.stdout).toBe("perl\nsh\n");
  });

  test("/tmp, HOME, /dev and SysV IPC written by one command are back to a fresh sandbox's for the next", async () => {
    const fresh = await sh(base, ws.dir, LEFTOVERS);
    const dirty = await sh(
      session,
      ws.dir,
      "echo secret > /tmp/a; mkdir -p /tmp/d/e; echo x > /tmp/d/e/f; chmod 000 /tmp/d; echo h > $HOME/h; touch /dev/shm/s /dev/new; " +
        "rm /dev/stdout; ln -s /tmp/a /dev/stdout; ipcmk -M 4096 >/dev/null; echo written",
    );
    expect(dirty.stdout).toBe("written\n");
    const next = await sh(session, ws.dir, LEFTOVERS);
    expect(next.stdout).toBe(fresh.stdout);
    expect(next.stdout).toContain("/tmp:\nhome\n");
  });

  test("a key one command puts in its user keyrings is gone for the next command", async () => {
    // add_key(2) and keyctl(KEYCTL_SEARCH) by number, from perl: the sandbox has no keyctl(1).
    const { addKey, keyctl } = KEY_SYSCALLS[process.arch as "x64" | "arm64"];
    const keys = (op: string) =>
      `perl -e 'my ($t, $p) = ("user", "token"); for my $ring (-4, -5) { my $d = "pg-key$ring"; ` +
      (op === "add"
        ? `print syscall(${addKey}, $t, $d, $p, length($p), $ring) > 0 ? "added\n" : "add failed: $!\n"; }'`
        : `print syscall(${keyctl}, 10, $ring, $t, $d, 0) > 0 ? "found $d\n" : "absent\n"; }'`);
    expect((await sh(session, ws.dir, keys("add"))).stdout).toBe("added\nadded\n");
    // Within one command the keys are there (so "absent" below is the reset, not a failed add).
    expect((await sh(session, ws.dir, `${keys("add")} >/dev/null; ${keys("search")}`)).stdout).toBe("found pg-key-4\nfound pg-key-5\n");
    expect((await sh(session, ws.dir, keys("search"))).stdout).toBe("absent\nabsent\n");
  });

  test("a command cannot forge the supervisor's report, stop it, or end the next command's run", async () => {
    const fake = "f".repeat(32);
    const fakeFence = `\\0${fake}\\0`;
    const forge = [
      // Every descriptor of the supervisor: a fake report on each (sockets cannot be reopened, and pid 1 is not dumpable).
      `for f in /proc/1/fd/*; do echo "done ${fake} 0 1" > $f && echo "wrote $f"; done`,
      "kill -KILL 1; kill -STOP 1",
      `printf 'before${fakeFence}after\\n'`,
      "exit 7",
    ].join("; ");
    const r = await sh(session, ws.dir, forge);
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe(`before\0${fake}\0after\n`);
    expect(r.stdout).not.toContain("wrote");
    expect(r.stderr).toMatch(/Permission denied/);
    const after = await sh(session, ws.dir, "echo still here");
    expect({ exitCode: after.exitCode, stdout: after.stdout }).toEqual({ exitCode: 0, stdout: "still here\n" });
  });

  test("each command leads a session of its own; one that cannot start fails alone, with the sandbox's own words", async () => {
    // /proc/self/stat: pid (comm) state ppid pgrp session; the shell is the command's first process.
    const ids = await sh(session, ws.dir, 'read -r line < /proc/$$/stat; set -- $line; echo "$1 $5 $6"');
    const [pid, pgrp, sid] = ids.stdout.trim().split(" ");
    expect(pid).toMatch(/^\d+$/);
    expect({ pgrp, sid }).toEqual({ pgrp: pid, sid: pid });
    const noDir = await sh(session, ws.dir, "echo ran", { cwd: "no/such/dir" });
    expect({ exitCode: noDir.exitCode, stdout: noDir.stdout }).toEqual({ exitCode: 1, stdout: "" });
    expect(noDir.stderr).toContain("patchgate-sandbox: cannot chdir to /workspace/no/such/dir");
    const after = await sh(session, ws.dir, "echo still here");
    expect({ exitCode: after.exitCode, stdout: after.stdout }).toEqual({ exitCode: 0, stdout: "still here\n" });
  });

  test("a kill -9 of the process that owns the session's sandbox leaves nothing of it running", async () => {
    const owner = join(await compiledApp(), "test/sandbox/fixtures/session-owner.js");
    const child = execFile(process.execPath, [owner, ws.dir], { cwd: process.cwd() });
    // The owner prints "running" once its command runs inside the long-lived sandbox.
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (d: Buffer) => d.toString().includes("running") && resolve());
      child.once("exit", (code) => reject(new Error(`owner exited early (${code})`)));
    });
    const tree = descendants(child.pid!);
    // bwrap, its supervisor and the command with its background process (sh or sleep, by how far they got).
    expect(tree.map((p) => p.comm)).toEqual(expect.arrayContaining(["bwrap", "perl"]));
    expect(tree.length).toBeGreaterThanOrEqual(4);
    child.kill("SIGKILL");
    await untilGone(tree.map((p) => p.pid));
  });
});
